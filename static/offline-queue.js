/* Tonk Ledger offline-first: hands saved without a connection wait on this phone.

   - Registers the service worker (static/sw.js, served as /sw.js) and, on the table screen,
     keeps a copy of the table, of the outcome chooser and of each outcome's whole entry on one
     page (?whole=1), so every step of entering a hand opens offline; a step opened offline is
     filled in from its address (what the earlier steps carried).
   - On a record page without a connection, "Check payouts" (or "Save hand") keeps the hand in
     IndexedDB with a fresh idempotency key and the next hand number, and goes back to the table.
   - While offline, beside "Check payouts": the hand is kept, its payouts come when it is sent;
     back on the table, a line says which hand was kept, and the next entry is numbered after
     the hands kept ("Hand 5: how did it end?" with hands 3 and 4 kept).
   - A badge says "2 waiting to send". When the connection returns, the hands are sent in order
     to the record flow's save (the page's CSRF token, Accept: application/json); the key makes
     each one recorded exactly once even if an answer is lost. A refusal (number taken, night
     closed, a rule) stays on its hand with the server's message, "Fix and save" and "Discard".
     Each hand sent has its own line in a list; the live page is asked to follow at once
     ("tonk:sent", static/live.js), which ends the "You are offline" note.
   Without JavaScript none of this runs and the pages work online as before. */
(function () {
  "use strict";

  var DB_NAME = "tonk-ledger";
  var STORE = "queue";
  var PAGES = "tonk-pages-v2"; // the names static/sw.js uses (a new name drops the old copies)
  var STATIC = "tonk-static-v2";
  var RETRY_MS = 10000;
  var OFFLINE_PAGE = "/offline-page"; // the offline page in the page's language, for static/sw.js
  var script = document.currentScript;
  var sending = false;
  var KEPT_NOTE = "tonk-kept"; // sessionStorage: the hand just kept, said on the table it goes back to

  // -- storage ------------------------------------------------------------------------------
  function openDb() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function withStore(mode, work) {
    return openDb().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var request = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(request ? request.result : undefined); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      });
    });
  }

  function allItems() {
    return withStore("readonly", function (store) { return store.getAll(); }).then(function (items) {
      return (items || []).sort(function (a, b) { return a.id - b.id; });
    });
  }
  function putItem(item) { return withStore("readwrite", function (store) { return store.put(item); }); }
  function addItem(item) { return withStore("readwrite", function (store) { return store.add(item); }); }
  function deleteItem(id) { return withStore("readwrite", function (store) { return store["delete"](id); }); }

  // -- helpers --------------------------------------------------------------------------------
  function t(key, params) { return window.tonkWords ? window.tonkWords(key, params) : key; }
  function field(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return null;
  }
  function setField(fields, name, value) {
    var out = fields.filter(function (pair) { return pair[0] !== name; });
    out.push([name, String(value)]);
    return out;
  }
  function newKey() {
    var bytes = new Uint8Array(18);
    crypto.getRandomValues(bytes);
    return "offline-" + Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function sessionOf() { return document.body && document.body.getAttribute("data-night"); }

  // -- keeping a hand -------------------------------------------------------------------------
  function keep(form, saveForm) {
    var session = saveForm.getAttribute("data-session");
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "go" && name !== "step" && name !== "csrf_token") fields.push([name, String(value)]);
    });
    return allItems().then(function (items) {
      var mine = items.filter(function (item) { return item.session === session; });
      var number = parseInt(field(fields, "number") || "0", 10) || 1;
      mine.forEach(function (item) { number = Math.max(number, item.number + 1); });
      fields = setField(setField(fields, "number", number), "key", newKey());
      var title = document.querySelector("main h1");
      return addItem({
        session: session,
        url: saveForm.getAttribute("action"),
        table: saveForm.getAttribute("data-table-url"),
        csrf: (saveForm.querySelector("input[name=csrf_token]") || {}).value || "",
        fields: fields,
        number: number,
        title: title ? title.textContent.trim() : t("hand"),
        status: "waiting",
        message: "",
        created: new Date().toISOString()
      }).then(function () {
        if (navigator.vibrate) navigator.vibrate(40);
        try {
          sessionStorage.setItem(KEPT_NOTE, JSON.stringify({ session: session, number: number }));
        } catch (e) { /* no storage: the badge still says it waits */ }
        if (navigator.serviceWorker && navigator.serviceWorker.controller) {
          window.location.href = saveForm.getAttribute("data-table-url"); // the table, as kept
          return;
        }
        // no service worker (a plain-http address on the Wi-Fi): stay here, the hand is kept
        sessionStorage.removeItem(KEPT_NOTE);
        say([t("hand_kept_payouts", { number: number })]);
        return render();
      });
    });
  }

  /* The whole entry on one page (data-step="whole") is what the service worker shows for any
     step of an outcome when the connection is gone: what the earlier steps carried in the
     address (claimants, dealer, totals, cards...) is put back into its inputs. Returns whether
     the address named the dealer. */
  function fillFromAddress(form) {
    var query = new URLSearchParams(location.search);
    var names = {};
    // from the outcome chooser only the outcome was chosen; its other fields are the kept copy's
    if (query.get("step") === "outcome") return false;
    query.forEach(function (value, name) {
      if (name !== "kind" && name !== "whole" && name !== "step" && name !== "go") names[name] = query.getAll(name);
    });
    Array.prototype.forEach.call(form.elements, function (input) {
      var values = names[input.name];
      if (!values || !input.name) return;
      var before = input.type === "checkbox" || input.type === "radio" ? input.checked : input.value;
      if (input.type === "checkbox" || input.type === "radio") {
        input.checked = values.indexOf(input.value) >= 0;
      } else if (input.tagName === "SELECT") {
        var options = Array.prototype.map.call(input.options, function (option) { return option.value; });
        var match = values.filter(function (value) { return options.indexOf(value) >= 0; })[0];
        if (match !== undefined) input.value = match;
      } else if (input.type !== "submit") {
        input.value = values[0];
      }
      var after = input.type === "checkbox" || input.type === "radio" ? input.checked : input.value;
      if (after !== before) input.dispatchEvent(new Event("change", { bubbles: true }));
    });
    // the hidden ones too (key, number): the page's own were made when the copy was kept
    Object.keys(names).forEach(function (name) {
      if (!form.querySelector('[name="' + name + '"]')) {
        names[name].forEach(function (value) {
          var extra = document.createElement("input");
          extra.type = "hidden"; extra.name = name; extra.value = value;
          form.appendChild(extra);
        });
      }
    });
    return "dealer" in names;
  }

  // Offline: the phone says so, or this page is the copy kept on the phone, served because the
  // server did not answer (a phone can believe it is online on a network that reaches nothing).
  function offline() {
    return !navigator.onLine || document.documentElement.hasAttribute("data-kept-copy");
  }

  function watchRecordPage() {
    var saveForm = document.querySelector("form[data-offline-save]");
    // a game entered on one page (13-card rummy) has one form: it is the entry and the save
    var form = document.getElementById("record-form") || saveForm;
    if (!form || !saveForm) return;
    var session = saveForm.getAttribute("data-session");
    var dealerGiven = form.getAttribute("data-step") === "whole" && fillFromAddress(form);
    // Opened offline after other hands were kept: the dealer moves on from the last one kept.
    var dealer = document.getElementById("dealer");
    if (dealer && !dealerGiven && offline()) {
      allItems().then(function (items) {
        var mine = items.filter(function (item) { return item.session === session; });
        if (!mine.length) return;
        var last = parseInt(field(mine[mine.length - 1].fields, "dealer") || "", 10);
        if (!isNaN(last)) dealer.value = String((last + 1) % dealer.options.length);
      });
    }
    // offline, the button that goes on to the payouts keeps the hand instead: say so beside it
    var hints = [];
    form.querySelectorAll("button[data-offline-keep]").forEach(function (button) {
      var hint = document.createElement("p");
      hint.className = "hint offline-keep-hint";
      hint.setAttribute("data-offline-keep-hint", "");
      hint.textContent = t("payouts_when_sent");
      var row = button.parentNode;
      row.parentNode.insertBefore(hint, row.nextSibling);
      hints.push(hint);
    });
    function showHints() { hints.forEach(function (hint) { hint.hidden = !offline(); }); }
    showHints();
    window.addEventListener("online", showHints);
    window.addEventListener("offline", showHints);
    form.addEventListener("submit", function (event) {
      var button = event.submitter;
      if (!offline() || !button || !button.hasAttribute("data-offline-keep")) return;
      event.preventDefault();
      keep(form, saveForm);
    });
    saveForm.addEventListener("submit", function (event) {
      if (!offline()) return;
      event.preventDefault();
      keep(saveForm, saveForm);
    });
  }

  // -- sending --------------------------------------------------------------------------------
  function send(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.set("csrf_token", item.csrf);
    body.set("step", "preview");
    body.set("go", "save");
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin", cache: "no-store",
      headers: { Accept: "application/json" }
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (data) {
        return { status: response.status, ok: response.ok, data: data };
      });
    });
  }

  function flush() {
    if (sending || !navigator.onLine) return Promise.resolve();
    sending = true;
    var news = [];
    var sent = false;
    return allItems().then(function (items) {
      var blocked = {};
      var chain = Promise.resolve(true);
      items.forEach(function (item) {
        chain = chain.then(function (online) {
          if (!online) return false;
          if (item.status !== "waiting" || blocked[item.session]) {
            blocked[item.session] = true;
            return true;
          }
          return send(item).then(function (answer) {
            var error = answer.data && answer.data.error;
            if (answer.status >= 500) return false; // the server is not there yet: try later
            if (answer.ok && answer.data && answer.data.number) {
              news.push(answer.data.message);
              sent = true;
              return deleteItem(item.id).then(function () { return true; });
            }
            if (error === "hand_number_gap" && answer.data.next_number) {
              // an earlier kept hand was discarded: nobody holds this number, take the next one
              item.number = answer.data.next_number;
              item.fields = setField(item.fields, "number", item.number);
              return putItem(item).then(function () { return send(item); }).then(function (again) {
                if (again.ok && again.data && again.data.number) {
                  news.push(again.data.message);
                  sent = true;
                  return deleteItem(item.id).then(function () { return true; });
                }
                return refuse(item, again, blocked);
              });
            }
            return refuse(item, answer, blocked);
          }, function () { return false; }); // no connection after all
        });
      });
      return chain;
    }).then(function () {
      sending = false;
      if (news.length) say(news);
      if (sent) document.dispatchEvent(new CustomEvent("tonk:sent"));
      return render();
    }, function () {
      sending = false;
      return render();
    });
  }

  function refuse(item, answer, blocked) {
    item.status = "refused";
    item.message = (answer.data && answer.data.message) || t("hand_not_taken", { status: answer.status });
    blocked[item.session] = true;
    return putItem(item).then(function () { return true; });
  }

  // -- showing the queue ----------------------------------------------------------------------
  // One line, or a list of one line per hand (several hands sent at once).
  function say(lines) {
    var box = document.getElementById("queue-news");
    if (!box) {
      box = document.createElement("div");
      box.id = "queue-news";
      box.className = "flash flash-success";
      box.setAttribute("role", "status");
      var main = document.getElementById("main");
      if (main) main.insertBefore(box, main.firstChild);
    }
    box.textContent = "";
    if (lines.length === 1) {
      box.textContent = lines[0];
      return;
    }
    var list = document.createElement("ul");
    list.className = "queue-news-list";
    lines.forEach(function (line) {
      var item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    });
    box.appendChild(list);
  }

  // The hand just kept, said once on the table the phone went back to.
  function sayKept() {
    var note = null;
    try {
      note = JSON.parse(sessionStorage.getItem(KEPT_NOTE) || "null");
      sessionStorage.removeItem(KEPT_NOTE);
    } catch (e) { return; }
    if (note && note.session === sessionOf() && document.querySelector("[data-live-region]")) {
      say([t("hand_kept_payouts", { number: note.number })]);
    }
  }

  // The next entry's number comes after the hands kept on this phone: the table's "Hand 3:
  // how did it end?" (data-next-hand, the server's number) and a record page's step line
  // ("Hand 3 · Step 1 of 2", after the number its form carries).
  function numberNext(kept) {
    var after = 0;
    kept.forEach(function (item) { after = Math.max(after, item.number + 1); });
    if (!after) return;
    document.querySelectorAll("[data-next-hand]").forEach(function (node) {
      var shown = parseInt(node.getAttribute("data-next-hand"), 10) || 0;
      if (after <= shown) return;
      node.textContent = t(node.getAttribute("data-next-words") || "hand_number", { number: after });
    });
    var step = document.querySelector("p.step-count");
    var carried = document.querySelector("#record-form input[name=number]");
    var was = carried ? parseInt(carried.value, 10) : NaN;
    if (!step || isNaN(was) || after <= was) return;
    var old = t("hand_number", { number: was });
    if (step.textContent.indexOf(old) === 0) {
      step.textContent = t("hand_number", { number: after }) + step.textContent.slice(old.length);
    }
  }

  function fixUrl(item) {
    var query = new URLSearchParams();
    item.fields.forEach(function (pair) { query.append(pair[0], pair[1]); });
    query.set("step", "preview");
    query.set("go", "next");
    return item.url + "?" + query.toString();
  }

  function render() {
    var main = document.getElementById("main");
    if (!main) return Promise.resolve();
    var note = document.querySelector("[data-offline-note]");
    // a copy kept on the phone (served because the server did not answer) is marked as such
    var copy = document.documentElement.hasAttribute("data-kept-copy");
    if (note) note.hidden = navigator.onLine && !copy;
    return allItems().then(function (items) {
      var session = sessionOf();
      var shown = session ? items.filter(function (item) { return item.session === session; }) : items;
      if (session) numberNext(shown);
      var box = document.getElementById("offline-queue");
      if (!shown.length) {
        if (box) box.remove();
        return;
      }
      if (!box) {
        box = document.createElement("section");
        box.id = "offline-queue";
        box.className = "panel offline-queue";
        box.setAttribute("aria-labelledby", "offline-queue-title");
        main.insertBefore(box, main.firstChild);
      }
      var waiting = shown.filter(function (item) { return item.status === "waiting"; }).length;
      var refused = shown.length - waiting;
      box.textContent = "";
      var title = document.createElement("h2");
      title.id = "offline-queue-title";
      var badge = document.createElement("span");
      badge.className = "badge badge-waiting";
      badge.setAttribute("role", "status");
      badge.textContent = t("waiting", { count: waiting });
      title.appendChild(badge);
      if (refused) {
        var stopped = document.createElement("span");
        stopped.className = "badge badge-refused";
        stopped.textContent = t("need_look", { count: refused });
        title.appendChild(document.createTextNode(" "));
        title.appendChild(stopped);
      }
      box.appendChild(title);
      var hint = document.createElement("p");
      hint.className = "hint";
      hint.textContent = navigator.onLine ? t("queue_sending") : t("queue_waiting");
      box.appendChild(hint);
      var list = document.createElement("ul");
      list.className = "queue-list";
      shown.forEach(function (item) {
        var row = document.createElement("li");
        row.className = "queue-item" + (item.status === "refused" ? " is-refused" : "");
        row.setAttribute("data-queue-number", String(item.number));
        var head = document.createElement("p");
        head.className = "queue-head";
        head.textContent = t("queue_item", { number: item.number, title: item.title });
        row.appendChild(head);
        if (item.status === "refused") {
          var message = document.createElement("p");
          message.className = "error";
          message.setAttribute("role", "alert");
          message.textContent = item.message;
          row.appendChild(message);
          var fix = document.createElement("a");
          fix.className = "btn btn-small";
          fix.href = fixUrl(item);
          fix.textContent = t("fix_hand", { number: item.number });
          fix.addEventListener("click", function () { deleteItem(item.id); });
          row.appendChild(fix);
          var drop = document.createElement("button");
          drop.type = "button";
          drop.className = "btn btn-small btn-danger";
          drop.textContent = t("discard_hand", { number: item.number });
          drop.addEventListener("click", function () {
            if (!window.confirm(t("discard_confirm"))) return;
            deleteItem(item.id).then(render).then(flush);
          });
          row.appendChild(drop);
        }
        list.appendChild(row);
      });
      box.appendChild(list);
    });
  }

  // -- the table's pages, kept for offline ----------------------------------------------------
  // A copy is asked for in the page's own language (?lang=, the catalogue the page's words came
  // from), whatever the phone's settings say; it is kept under its address without it, where
  // static/sw.js looks for it.
  function inPageLanguage(url) {
    var words = document.getElementById("ui-words");
    var lang = (words && words.getAttribute("data-lang")) || document.documentElement.lang;
    if (!lang) return url;
    return url + (url.indexOf("?") < 0 ? "?" : "&") + "lang=" + encodeURIComponent(lang);
  }

  function escapeHtml(text) {
    return String(text).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  // The page static/sw.js shows for an address that has no copy, in this page's language.
  function keepOfflinePage() {
    if (!window.caches) return Promise.resolve();
    var sheet = document.querySelector('link[rel=stylesheet][href*="app.css"]');
    var html = '<!doctype html><html lang="' + escapeHtml(document.documentElement.lang || "en") + '">' +
      '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
      "<title>" + escapeHtml(t("offline_title")) + "</title>" +
      '<link rel="stylesheet" href="' + escapeHtml(sheet ? sheet.getAttribute("href") : "/static/app.css") + '">' +
      '</head><body><main id="main"><section class="panel">' +
      "<h1>" + escapeHtml(t("offline_heading")) + "</h1><p>" + escapeHtml(t("offline_text")) + "</p>" +
      '<p><a class="btn btn-block" href="/">' + escapeHtml(t("offline_home")) + "</a></p></section></main></body></html>";
    return caches.open(PAGES).then(function (cache) {
      return cache.put(new URL(OFFLINE_PAGE, location.href).href,
        new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }));
    }).catch(function () {});
  }

  function keepTablePages() {
    var outcomes = document.querySelector("form[data-offline-outcomes]");
    if (!outcomes || !window.caches) return Promise.resolve();
    var base = outcomes.getAttribute("action");
    var urls = [location.pathname, base];
    // each outcome's whole entry on one page: every step of it works offline (see sw.js)
    outcomes.querySelectorAll("button[name=kind]").forEach(function (button) {
      urls.push(base + "?kind=" + encodeURIComponent(button.value) + "&whole=1");
    });
    var assets = [];
    document.querySelectorAll("link[rel=stylesheet][href], script[src], link[rel=manifest][href]").forEach(function (node) {
      var address = node.getAttribute("href") || node.getAttribute("src");
      if (address && address.indexOf("/static/") >= 0) assets.push(address);
    });
    return caches.open(PAGES).then(function (cache) {
      return Promise.all(urls.map(function (url) {
        // a copy that does not come within RETRY_MS is given up (kept next time), so that one
        // stalled request on bad Wi-Fi never keeps the phone from saying it can work offline
        var stop = window.AbortController ? new AbortController() : null;
        var timer = stop ? setTimeout(function () { stop.abort(); }, RETRY_MS) : null;
        return fetch(inPageLanguage(url), {
          credentials: "same-origin", cache: "no-store", headers: { "X-Offline-Copy": "1" },
          signal: stop ? stop.signal : undefined
        }).then(function (response) {
          if (!response.ok) return undefined;
          // the kept page's own scripts and styles too (a game's entry page may load one the
          // table does not, such as the rummy card grid's): a page opened offline needs them
          return response.clone().text().then(function (html) {
            var found, files = /(?:src|href)="(\/static\/[^"]+)"/g;
            while ((found = files.exec(html))) if (assets.indexOf(found[1]) < 0) assets.push(found[1]);
          }).then(function () { return cache.put(new URL(url, location.href).href, response); });
        }).catch(function () {}).then(function () { if (timer) clearTimeout(timer); });
      }));
    }).then(function () {
      return caches.open(STATIC).then(function (cache) {
        return Promise.all(assets.map(function (url) { return cache.add(url).catch(function () {}); }));
      });
    });
  }

  /* Resolves once the service worker controls this page. A page opened while the worker was
     still starting, or reloaded past it, is not controlled: it asks the worker to take it
     (sw.js, "claim"), so that saving a hand offline goes back to the table's kept copy. Waits
     RETRY_MS at most: a worker that does not answer leaves the page as it is. */
  function takenByWorker(registration) {
    var workers = navigator.serviceWorker;
    if (workers.controller || !registration || !registration.active) return undefined;
    return new Promise(function (resolve) {
      var timer = setTimeout(resolve, RETRY_MS);
      workers.addEventListener("controllerchange", function () { clearTimeout(timer); resolve(); }, { once: true });
      registration.active.postMessage("claim");
    });
  }

  function start() {
    if (!window.indexedDB || !window.fetch) return;
    var ready = Promise.resolve();
    if ("serviceWorker" in navigator && script && script.getAttribute("data-sw")) {
      ready = navigator.serviceWorker.register(script.getAttribute("data-sw"), { scope: "/" })
        .then(function () { return navigator.serviceWorker.ready; })
        .then(takenByWorker)
        .then(function () { return keepOfflinePage(); })
        .then(function () { return navigator.onLine ? keepTablePages() : undefined; })
        .catch(function () {});
    }
    ready.then(function () { document.documentElement.setAttribute("data-offline-ready", "1"); });
    watchRecordPage();
    sayKept();
    render().then(flush);
    // the live page follows the server again (static/live.js): the note and the queue say so
    document.addEventListener("tonk:live", render);
    window.addEventListener("online", function () { render().then(flush); });
    window.addEventListener("offline", render);
    setInterval(function () { if (navigator.onLine) flush(); }, RETRY_MS);
  }

  if (document.readyState !== "loading") start();
  else document.addEventListener("DOMContentLoaded", start);
})();
