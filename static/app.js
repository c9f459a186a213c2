/* Tonk Ledger: small progressive enhancements. Every page works without this file. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  ready(function () {
    // Copy the table link.
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      button.addEventListener("click", function () {
        var input = document.querySelector(button.getAttribute("data-copy"));
        if (!input) return;
        var done = function () {
          var label = button.textContent;
          button.textContent = "Copied ✓";
          setTimeout(function () { button.textContent = label; }, 1600);
        };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(input.value).then(done, function () {
            input.select(); document.execCommand("copy"); done();
          });
        } else {
          input.focus(); input.select(); document.execCommand("copy"); done();
        }
      });
    });

    // Destructive forms: ask in a dialog instead of the confirm page.
    document.querySelectorAll("form[data-confirm]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (form.querySelector("input[name=confirmed]")) return;
        if (!window.confirm(form.getAttribute("data-confirm"))) {
          event.preventDefault();
          return;
        }
        var flag = document.createElement("input");
        flag.type = "hidden"; flag.name = "confirmed"; flag.value = "yes";
        form.appendChild(flag);
      });
    });

    // A double tap on "Save hand" sends once (the server is idempotent anyway).
    document.querySelectorAll("form").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (form.dataset.busy === "1") { event.preventDefault(); return; }
        var submitter = event.submitter;
        if (submitter && submitter.hasAttribute("data-once")) form.dataset.busy = "1";
      });
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

    function pretty(input) {
      var label = input.nextElementSibling;
      return label ? label.textContent.trim() : input.value;
    }

    function refresh() {
      var holders = {};
      entries.forEach(function (entry) {
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
            strong.textContent = points + " pts";
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
              label.title = (who ? who.textContent : "Another player") + " has this card";
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
    refresh();
  });
})();
