/* Tonk Ledger live pages: the part of a page marked data-live-region follows what the other
   phones do. Every 2 s while the tab is visible it asks /s/<id>/state?since=<version>, sending
   the last answer's ETag in If-None-Match: an empty 304 means nothing changed; when the night's
   version moved, the server sends the region re-rendered and a line of news, or, when only a
   few rows changed (a hand recorded or voided on the history page), just those rows, which
   replace their old selves or go in at their place. While a poll is under way the region is
   aria-busy; the next poll is set (on the page's clock) before that mark goes.
   The status says "Offline" while the phone has no connection (or the page is a copy kept on
   the phone) and "Live" once the server answers again; an answer that brings the page up to
   date ends its being a kept copy (the "You are offline" note goes, "tonk:live" is sent), and
   the offline queue's "tonk:sent" (kept hands were just sent) asks at once.
   Without this file the page shows a Refresh link instead. */
(function () {
  "use strict";

  var STALE_AFTER = 3; // failed polls in a row before the page says it is offline

  function t(key, params) { return window.tonkWords ? window.tonkWords(key, params) : key; }

  // Times are written the page's language's way; the phone's own regional habits (24-hour
  // clock, day names) are kept when the phone reads that language anyway.
  function locales() {
    var page = (document.documentElement.lang || "").toLowerCase();
    var mine = (navigator.language || "").toLowerCase();
    if (!page || mine === page || mine.split("-")[0] === page) return [];
    return [page];
  }

  function localTimes(root) {
    var wanted = locales();
    root.querySelectorAll("time[data-local]").forEach(function (node) {
      var when = new Date(node.getAttribute("datetime"));
      if (isNaN(when.getTime())) return;
      var today = new Date().toDateString() === when.toDateString();
      node.textContent = when.toLocaleString(wanted, today
        ? { hour: "numeric", minute: "2-digit" }
        : { weekday: "short", hour: "numeric", minute: "2-digit" });
      node.title = when.toLocaleString(wanted);
    });
  }

  function start() {
    localTimes(document);
    var region = document.querySelector("[data-live-region][data-live-url]");
    if (!region || !window.fetch) return;
    var url = region.getAttribute("data-live-url");
    var version = region.getAttribute("data-live-version") || "0";
    var every = parseInt(region.getAttribute("data-live-poll") || "2000", 10);
    var status = document.querySelector("[data-live-status]");
    var refresh = document.querySelector("[data-live-refresh]");
    var timer = null;
    var etag = null; // the ETag of the last answer shown: the server says 304 while it holds
    var busy = false;
    var failures = 0;
    var stopped = false;
    var whole = false; // ask for the whole region next time (rows came that had no place here)

    document.documentElement.classList.add("live-on");
    if (refresh) refresh.hidden = true;
    if (!navigator.onLine || keptCopy()) say(t("offline"), "off");
    else say(t("live"), "ok");

    function keptCopy() { return document.documentElement.hasAttribute("data-kept-copy"); }
    // the server answered and the page shows its version: no longer the copy the phone kept
    function current() {
      if (!keptCopy()) return;
      document.documentElement.removeAttribute("data-kept-copy");
      document.dispatchEvent(new CustomEvent("tonk:live"));
    }

    function say(text, state) {
      if (!status) return;
      status.textContent = text;
      status.setAttribute("data-state", state);
    }

    function news(lines) {
      if (!lines || !lines.length) return;
      var box = document.getElementById("live-news");
      if (!box) {
        box = document.createElement("div");
        box.id = "live-news";
        box.className = "live-news";
        box.setAttribute("role", "status");
        box.setAttribute("aria-live", "polite");
        document.body.appendChild(box);
      }
      box.textContent = lines.join(" · ");
      box.classList.add("is-shown");
      clearTimeout(box._hide);
      box._hide = setTimeout(function () { box.classList.remove("is-shown"); }, 4000);
    }

    // A region with a field being typed in waits for the next poll, so nothing typed is lost.
    function editing() {
      var active = document.activeElement;
      return active && region.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);
    }

    // The one place HTML enters the page: a region or rows the server rendered (and escaped).
    function render(into, html) { into.innerHTML = html; }

    function swap(html) {
      var open = [];
      region.querySelectorAll("details[id][open]").forEach(function (d) { open.push(d.id); });
      render(region, html);
      open.forEach(function (id) {
        var d = document.getElementById(id);
        if (d && region.contains(d)) d.open = true;
      });
      localTimes(region);
      region.querySelectorAll("[data-share]").forEach(function (b) { if (navigator.share) b.hidden = false; });
    }

    // Rows (newest number first in the list) replace the row of their number or go in at their
    // place; the list keeps at most its data-live-rows rows. False when the page has no such list.
    function patch(rows) {
      var list = region.querySelector("[data-live-rows]");
      if (!list) return false;
      rows.forEach(function (row) {
        var holder = document.createElement(list.tagName);
        render(holder, row.html);
        var fresh = holder.firstElementChild;
        if (!fresh) return;
        var old = document.getElementById(fresh.id);
        if (old && list.contains(old)) {
          old.querySelectorAll("details[id][open]").forEach(function (d) {
            var kept = fresh.querySelector("#" + CSS.escape(d.id));
            if (kept) kept.open = true;
          });
          list.replaceChild(fresh, old);
        } else {
          var after = null;
          Array.prototype.some.call(list.children, function (item) {
            var number = parseInt((item.id || "").replace(/^hand-/, ""), 10);
            if (number < row.number) { after = item; return true; }
            return false;
          });
          list.insertBefore(fresh, after);
        }
      });
      var most = parseInt(list.getAttribute("data-live-rows"), 10) || 0;
      while (most && list.children.length > most) list.removeChild(list.lastElementChild);
      localTimes(list);
      return true;
    }

    // Shows the answer; true when the page now shows the answer's version.
    function apply(body) {
      if (String(body.version) === version || !(body.regions || body.rows)) return String(body.version) === version;
      if (editing()) return false; // try again next time: version stays as it was
      if (body.rows) {
        if (!patch(body.rows)) {
          whole = true; // rows with no list to go in: fetch the whole region next time
          return false;
        }
      } else {
        swap(body.regions.main);
      }
      version = String(body.version);
      region.setAttribute("data-live-version", version);
      news(body.news);
      return true;
    }

    function schedule(delay) {
      clearTimeout(timer);
      if (!stopped && !document.hidden) timer = setTimeout(poll, delay);
    }

    function poll() {
      if (busy || stopped || document.hidden) return;
      busy = true;
      region.setAttribute("aria-busy", "true"); // asking: the region may change when the answer comes
      var sep = url.indexOf("?") < 0 ? "?" : "&";
      var headers = { Accept: "application/json" };
      if (etag) headers["If-None-Match"] = etag;
      var asked = whole ? url : url + sep + "rows=1&since=" + encodeURIComponent(version);
      whole = false;
      fetch(asked, {
        credentials: "same-origin", cache: "no-store", headers: headers
      }).then(function (response) {
        if (response.status === 403 || response.status === 404) {
          stopped = true;
          throw new Error("gone");
        }
        if (response.status === 304) return null; // nothing changed since the last answer
        if (!response.ok) throw new Error("HTTP " + response.status);
        var tag = response.headers.get("ETag");
        return response.json().then(function (body) { return { body: body, tag: tag }; });
      }).then(function (answer) {
        failures = 0;
        var shown = !answer;
        if (answer) {
          // keep the tag only once the page shows this version (a region held back while typing
          // must be fetched again)
          shown = apply(answer.body);
          if (shown) etag = answer.tag;
        }
        if (shown) current();
        say(t("live"), "ok");
      }).catch(function () {
        failures += 1;
        if (!stopped && !navigator.onLine) {
          say(t("offline"), "off");
        } else if (stopped || failures >= STALE_AFTER) {
          say(stopped ? t("not_live") : t("offline_retrying"), "off");
          if (refresh) refresh.hidden = false;
        }
      }).then(function () {
        busy = false;
        region.removeAttribute("aria-busy");
        schedule(failures ? Math.min(every * (failures + 1), 15000) : every);
      });
    }

    document.addEventListener("visibilitychange", function () {
      if (document.hidden) clearTimeout(timer);
      else schedule(0);
    });
    window.addEventListener("pageshow", function (event) { if (event.persisted) schedule(0); });
    window.addEventListener("offline", function () { if (!stopped) say(t("offline"), "off"); });
    window.addEventListener("online", function () { schedule(0); });
    document.addEventListener("tonk:sent", function () { schedule(0); });
    schedule(every);
  }

  if (document.readyState !== "loading") start();
  else document.addEventListener("DOMContentLoaded", start);
})();
