/* Tonk Ledger: small progressive enhancements. Every page works without this file. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // The words the scripts show, in the page's language: ledger/web/js_words.py puts them in
  // every page as JSON (#ui-words). tonkWords("hand_kept", {number: 4}) fills the named
  // placeholders; a counted entry holds one form per plural category of the language and is
  // chosen for params.count with Intl.PluralRules. An unknown key comes back as itself.
  var words = null;
  var plurals = null;
  function lexicon() {
    if (words) return words;
    var node = document.getElementById("ui-words");
    try { words = node ? JSON.parse(node.textContent) : {}; } catch (e) { words = {}; }
    return words;
  }
  function pluralCategory(count) {
    try {
      plurals = plurals || new Intl.PluralRules(document.documentElement.lang || "en");
      return plurals.select(Number(count));
    } catch (e) {
      return Number(count) === 1 ? "one" : "other";
    }
  }
  window.tonkWords = function (key, params) {
    var entry = lexicon()[key];
    var given = params || {};
    if (entry && typeof entry === "object") entry = entry[pluralCategory(given.count)] || entry.other;
    if (typeof entry !== "string") return key;
    return entry.replace(/\{(\w+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(given, name) ? String(given[name]) : whole;
    });
  };
  var t = window.tonkWords;

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  ready(function () {
    // A night keeps the time zone of the phone that starts it (without JavaScript: UTC).
    document.querySelectorAll("input[data-phone-timezone]").forEach(function (input) {
      try {
        var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
        if (zone) input.value = zone;
      } catch (e) { /* keep UTC */ }
    });

    // Copy a link (data-copy="#input") or a text (data-copy-text), share a link
    // (data-share="#input", only where the phone can share). Delegated, so buttons in a
    // region that live.js swaps in work too.
    function copied(button) {
      if (!button.dataset.label) button.dataset.label = button.textContent;
      button.textContent = t("copied");
      setTimeout(function () { button.textContent = button.dataset.label; }, 1600);
    }
    function copy(text, input, button) {
      var legacy = function () {
        var box = input;
        if (!box) {
          box = document.createElement("textarea");
          box.value = text; box.readOnly = true; box.className = "visually-hidden";
          document.body.appendChild(box);
        }
        box.focus(); box.select();
        try { if (document.execCommand("copy")) copied(button); } catch (e) { /* the text stays selected */ }
        if (!input) box.remove();
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () { copied(button); }, legacy);
      } else {
        legacy();
      }
    }
    document.querySelectorAll("[data-share]").forEach(function (button) {
      if (navigator.share) button.hidden = false;
    });
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("[data-copy], [data-copy-text], [data-share]");
      if (!button) return;
      if (button.hasAttribute("data-share")) {
        var link = document.querySelector(button.getAttribute("data-share"));
        if (link && navigator.share) {
          navigator.share({ title: button.getAttribute("data-share-title") || document.title, url: link.value })
            .catch(function () {});
        }
        return;
      }
      if (button.hasAttribute("data-copy-text")) {
        copy(button.getAttribute("data-copy-text"), null, button);
        return;
      }
      var input = document.querySelector(button.getAttribute("data-copy"));
      if (input) copy(input.value, input, button);
    });

    // Destructive forms ask in a dialog instead of the confirm page; a double tap on a
    // data-once button ("Save hand") sends once (the server is idempotent anyway).
    document.addEventListener("submit", function (event) {
      var form = event.target;
      if (event.defaultPrevented) return;
      if (form.dataset.busy === "1") { event.preventDefault(); return; }
      if (form.hasAttribute("data-confirm") && !form.querySelector("input[name=confirmed]")) {
        if (!window.confirm(form.getAttribute("data-confirm"))) {
          event.preventDefault();
          return;
        }
        var flag = document.createElement("input");
        flag.type = "hidden"; flag.name = "confirmed"; flag.value = "yes";
        form.appendChild(flag);
      }
      var submitter = event.submitter;
      if (submitter && submitter.hasAttribute("data-once")) form.dataset.busy = "1";
    });
    // A total or a count (data-select-on-focus) selects its value when it takes the focus, so
    // that typing "4" into a field holding "7" gives "4", not "47". The tap that focused it
    // would put the caret back on its mouseup: that one mouseup keeps the selection.
    document.addEventListener("focusin", function (event) {
      var input = event.target;
      if (!input.matches || !input.matches("input[data-select-on-focus]")) return;
      var keep = function (up) { up.preventDefault(); done(); };
      var done = function () {
        input.removeEventListener("mouseup", keep);
        input.removeEventListener("blur", done);
      };
      input.addEventListener("mouseup", keep);
      input.addEventListener("blur", done);
      try { input.select(); } catch (e) { /* a field that cannot select keeps its caret */ }
    });
    // Back to a page kept in the browser's memory: its forms can be sent again.
    window.addEventListener("pageshow", function (event) {
      if (!event.persisted) return;
      document.querySelectorAll("form[data-busy]").forEach(function (form) { delete form.dataset.busy; });
    });

    // After a refused entry, bring the first error into view and focus its input.
    var firstError = document.querySelector("main .error");
    if (firstError && document.getElementById("error-summary")) {
      firstError.scrollIntoView({ block: "center" });
      var box = firstError.closest("fieldset, .field");
      var input = box && box.querySelector("input[aria-invalid=true], select[aria-invalid=true]");
      if (input && input.type !== "checkbox") input.focus({ preventScroll: true });
    }

    // Card grids: live count of tapped cards, and cards held by one player are greyed out
    // (disabled) in the other players' grids.
    var entries = Array.prototype.slice.call(document.querySelectorAll(".hand-entry[data-seat]"));
    if (!entries.length) return;
    var recordForm = document.getElementById("record-form");

    // A hand marked data-needs shows, and is sent, only while the who-fields make it part of
    // the entry: a deal tonk's claimants, a double-double's responder, everyone but the
    // player who went out. A hidden hand keeps its taps for when it is needed again.
    function needed(entry) {
      var seat = entry.getAttribute("data-seat");
      var needs = entry.getAttribute("data-needs");
      if (!needs || !recordForm) return true;
      if (needs === "claimant") {
        var claim = recordForm.querySelector('input[name=claimant][value="' + seat + '"]');
        return !!(claim && claim.checked);
      }
      var chosen = recordForm.querySelector("input[name=" + (needs === "responder" ? "responder" : "who") + "]:checked");
      if (needs === "responder") return !!chosen && chosen.value === seat;
      return !chosen || chosen.value !== seat; // "loser"
    }
    function follow() {
      entries.forEach(function (entry) {
        var on = needed(entry);
        entry.hidden = !on;
        entry.disabled = !on; // a disabled fieldset's inputs are not sent
      });
    }

    function pretty(input) {
      var label = input.nextElementSibling;
      return label ? label.textContent.trim() : input.value;
    }

    function refresh() {
      var holders = {};
      entries.forEach(function (entry) {
        if (entry.disabled) return;
        entry.querySelectorAll(".chip-input:checked").forEach(function (input) {
          if (input.value !== "JK") holders[input.value] = entry;
        });
      });
      entries.forEach(function (entry) {
        var checked = entry.querySelectorAll(".chip-input:checked");
        var points = 0;
        var names = [];
        checked.forEach(function (input) {
          points += parseInt(input.getAttribute("data-points") || "0", 10);
          names.push(pretty(input));
        });
        var out = entry.querySelector("[data-tapped]");
        if (out) {
          out.textContent = "";
          if (checked.length) {
            var strong = document.createElement("strong");
            strong.textContent = t("points", { count: points });
            out.appendChild(document.createTextNode(names.join(" ") + " · "));
            out.appendChild(strong);
          }
        }
        entry.querySelectorAll(".chip-input").forEach(function (input) {
          var holder = holders[input.value];
          var takenElsewhere = holder && holder !== entry && !input.checked;
          input.disabled = !!takenElsewhere;
          var label = input.nextElementSibling;
          if (label) {
            label.classList.toggle("taken", !!takenElsewhere);
            if (takenElsewhere) {
              var who = holder.querySelector(".hand-name");
              label.title = who ? t("card_held_by", { name: who.textContent }) : t("card_held_by_another");
            } else {
              label.removeAttribute("title");
            }
          }
        });
      });
    }

    entries.forEach(function (entry) {
      entry.addEventListener("change", function (event) {
        if (event.target.classList.contains("chip-input")) refresh();
      });
    });
    if (recordForm) {
      recordForm.addEventListener("change", function (event) {
        if (/^(claimant|responder|who)$/.test(event.target.name)) {
          follow();
          refresh();
        }
      });
    }
    follow();
    refresh();
  });
})();
