/* Tonk Ledger, start form seats: progressive enhancement only (the form works without it).
 *
 * "Add a seat" adds a name field in place instead of sending the form; when the house rules'
 * "Most players" (rule-max_players) goes up, seats are added up to it. Seats are never removed,
 * so nothing typed is lost; a name too many is refused by the server beside the seats.
 */
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  ready(function () {
    var box = document.querySelector("[data-seats]");
    if (!box) return;
    var form = box.closest("form");
    var count = box.querySelector("[data-seat-count]");
    var limit = parseInt(box.getAttribute("data-seat-limit") || "8", 10);
    var button = box.querySelector("[data-add-seat]");

    function rows() { return box.querySelectorAll("[data-seat-row]"); }

    function showButton() {
      if (button) button.hidden = rows().length >= limit;
    }

    function addSeat() {
      var all = rows();
      var last = all[all.length - 1];
      if (!last || all.length >= limit) return null;
      var i = all.length;
      var key = "player-" + i;
      var row = last.cloneNode(true);
      var label = row.querySelector(".seat-label");
      label.setAttribute("for", key);
      label.textContent = window.tonkWords ? window.tonkWords("seat", { number: i + 1 }) : String(i + 1);
      var input = row.querySelector("input[type=text]");
      input.id = key;
      input.name = key;
      input.value = "";
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
      var radio = row.querySelector("input[type=radio]");
      radio.value = String(i);
      radio.checked = false;
      var after = last;
      while (after.nextElementSibling && after.nextElementSibling.matches("p.error[id^='err-player-']")) {
        after = after.nextElementSibling;
      }
      after.parentNode.insertBefore(row, after.nextSibling);
      if (count) count.value = String(i + 1);
      showButton();
      return input;
    }

    function seatUpTo() {
      var wanted = form && form.querySelector('[name="rule-max_players"]');
      var most = wanted ? parseInt(wanted.value, 10) : NaN;
      if (isNaN(most)) return;
      most = Math.min(most, limit);
      while (rows().length < most && addSeat()) { /* one more */ }
    }

    if (button) {
      button.addEventListener("click", function (event) {
        event.preventDefault();
        var input = addSeat();
        if (input) input.focus();
      });
    }
    if (form) {
      form.addEventListener("input", function (event) {
        if (event.target && event.target.name === "rule-max_players") seatUpTo();
      });
      form.addEventListener("change", function (event) {
        if (event.target && event.target.name === "rule-max_players") seatUpTo();
      });
      form.addEventListener("rules:filled", seatUpTo);  // house-rules.js filled the controls in
    }
    showButton();
  });
})();
