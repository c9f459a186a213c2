/* Tonk Ledger, house rules: progressive enhancement only (every page works without it).
 *
 * Start page: when the preset or a house-rule control changes, ask GET /rules/summary (the
 * engine's rules in words) and update "What these rules pay", the controls' values (a new
 * preset fills them in, keeping the changes made by hand), the "changed" marks and any error
 * beside its control.
 * Record flow: with declared jokers, the live count of a hand includes what each joker is
 * declared as; on the side-pot step, tapping a spade ticks "plays the side pot" for that player.
 */
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  function t(key, params) { return window.tonkWords ? window.tonkWords(key, params) : key; }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function isRuleField(name) {
    return name === "preset" || name === "rules_base" || name.indexOf("rule-") === 0;
  }

  function startPage(form) {
    var url = form.getAttribute("data-summary-url");
    var box = form.querySelector("[data-summary]");
    if (!url || !box || !window.fetch || !window.URLSearchParams) return;
    document.documentElement.classList.add("hr-live");
    var timer = null;
    var asked = 0;

    function params() {
      var out = new URLSearchParams();
      new FormData(form).forEach(function (value, name) {
        if (isRuleField(name)) out.append(name, value);
      });
      return out;
    }

    function renderSummary(data) {
      box.textContent = "";
      if (!data.ok) {
        box.appendChild(el("p", "hint", t("rules_fix_first")));
        return;
      }
      var n = data.changes.length;
      box.appendChild(el("p", "meta", n ? t("preset_with_changes", { preset: data.title, count: n }) : data.title));
      if (n) {
        var changes = el("ul", "hr-changes");
        data.changes.forEach(function (c) {
          var li = el("li");
          li.appendChild(el("strong", "", t("rule_label", { label: c.label })));
          li.appendChild(document.createTextNode(" " + c.value));
          changes.appendChild(li);
        });
        box.appendChild(changes);
      }
      var list = null;
      var topic = null;
      data.lines.forEach(function (line) {
        if (line.topic_title !== topic) {
          topic = line.topic_title;
          box.appendChild(el("h3", "", topic));
          list = el("ul", "rule-lines");
          box.appendChild(list);
        }
        list.appendChild(el("li", line.changed ? "is-changed" : "", line.text));
      });
    }

    function renderErrors(errors) {
      form.querySelectorAll("[data-error-slot]").forEach(function (slot) {
        var key = slot.getAttribute("data-error-slot");
        var message = errors[key];
        var control = slot.closest("[data-control]");
        slot.textContent = "";
        if (control) {
          control.querySelectorAll("input:not([type=hidden]), select").forEach(function (input) {
            if (message) {
              input.setAttribute("aria-invalid", "true");
              input.setAttribute("aria-describedby", "err-" + key);
            } else {
              input.removeAttribute("aria-invalid");
              input.removeAttribute("aria-describedby");
            }
          });
        }
        if (message) {
          var p = el("p", "error", message);
          p.id = "err-" + key;
          p.setAttribute("role", "alert");
          slot.appendChild(p);
        }
      });
    }

    function fill(values) {
      Object.keys(values).forEach(function (name) {
        var value = values[name];
        form.querySelectorAll('[name="' + name + '"]').forEach(function (input) {
          if (input.type === "hidden") return;
          if (input.type === "checkbox") input.checked = value === "true";
          else if (input.type === "radio") input.checked = input.value === value;
          else if (input.value !== value && input !== document.activeElement) input.value = value;
        });
      });
    }

    function markChanged(changes) {
      var changed = {};
      changes.forEach(function (c) { changed["rule-" + c.toggle] = true; });
      form.querySelectorAll("[data-control]").forEach(function (control) {
        control.classList.toggle("is-changed", !!changed[control.getAttribute("data-control")]);
      });
      var badge = form.querySelector("[data-hr-count]");
      if (badge) badge.textContent = changes.length ? t("rules_changed", { count: changes.length }) : t("as_the_preset");
    }

    function ask() {
      var mine = ++asked;
      box.setAttribute("aria-busy", "true");
      fetch(url + "?" + params().toString(), { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) { return response.json(); })
        .then(function (data) {
          if (mine !== asked) return;  // a newer answer is on its way
          box.removeAttribute("aria-busy");
          renderErrors(data.errors || {});
          if (data.ok) {
            fill(data.values || {});
            var base = form.querySelector('input[name="rules_base"]');
            if (base) base.value = data.rules_base;
            markChanged(data.changes || []);
            form.dispatchEvent(new Event("rules:filled"));  // seats.js adds seats the rules now allow
          }
          renderSummary(data);
        })
        .catch(function () {
          box.removeAttribute("aria-busy");
          document.documentElement.classList.remove("hr-live");  // show the plain button again
        });
    }

    form.addEventListener("change", function (event) {
      var name = event.target && event.target.name;
      if (!name || !isRuleField(name)) return;
      clearTimeout(timer);
      timer = setTimeout(ask, 120);
    });
  }

  function sidePot() {
    document.querySelectorAll(".side-player").forEach(function (row) {
      var playing = row.querySelector('input[name="side_in"]');
      if (!playing) return;
      row.querySelectorAll(".spade-input").forEach(function (spade) {
        spade.addEventListener("change", function () {
          if (spade.checked) playing.checked = true;
        });
      });
    });
  }

  // app.js counts the tapped chips; a hand with joker menus is counted again here, after it
  // (its listener runs first), with the points of each declared joker from the server.
  function declaredJokers() {
    document.querySelectorAll(".hand-entry[data-seat]").forEach(function (entry) {
      var menus = entry.querySelectorAll("select.joker-as");
      var out = entry.querySelector("[data-tapped]");
      if (!menus.length || !out) return;
      function recount() {
        var names = [];
        var points = 0;
        entry.querySelectorAll(".chip-input:checked").forEach(function (input) {
          points += parseInt(input.getAttribute("data-points") || "0", 10);
          var label = input.nextElementSibling;
          names.push(label ? label.textContent.trim() : input.value);
        });
        menus.forEach(function (menu) {
          var option = menu.options[menu.selectedIndex];
          if (!option || !option.value) return;
          points += parseInt(option.getAttribute("data-points") || "0", 10);
          names.push(t("joker_as", { card: option.textContent.trim().replace(/ \(.*\)$/, "") }));
        });
        out.textContent = "";
        if (names.length) {
          out.appendChild(document.createTextNode(names.join(" ") + " · "));
          out.appendChild(el("strong", "", t("points", { count: points })));
        }
      }
      entry.addEventListener("change", recount);
      recount();
    });
  }

  ready(function () {
    var form = document.querySelector("form[data-summary-url]");
    if (form) startPage(form);
    declaredJokers();
    sidePot();
  });
})();
