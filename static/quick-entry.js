/* Tonk Ledger quick entry: on the hands page, the keyboard's Enter ("next") moves from one
   player's total to the next and, on the last, checks the payouts; opening one player's card
   grid closes the others, so one player's cards are on screen at a time. Without this file
   the page works the same, a tap at a time. */
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  ready(function () {
    var form = document.getElementById("record-form");
    if (!form) return;
    var totals = Array.prototype.slice.call(form.querySelectorAll("input.total-input"));
    totals.forEach(function (input, index) {
      input.addEventListener("keydown", function (event) {
        if (event.key !== "Enter") return;
        event.preventDefault();
        var next = totals[index + 1];
        if (next) {
          next.focus();
          next.select();
          return;
        }
        var go = form.querySelector("button[name=go][value=next]");
        if (form.requestSubmit) form.requestSubmit(go || undefined);
        else if (go) go.click();
      });
    });
    var grids = Array.prototype.slice.call(form.querySelectorAll("details.cards"));
    function only(details) {
      grids.forEach(function (other) { if (other !== details) other.open = false; });
    }
    // Only a grid the player opens closes the others: grids the page opened itself (cards
    // entered, a refusal beside them) stay open, so no message is hidden. (A "toggle" event
    // would also fire, at a moment that varies, for the grids open when the page loads.)
    grids.forEach(function (details) {
      var summary = details.querySelector("summary.cards-toggle");
      if (summary) summary.addEventListener("click", function () { if (!details.open) only(details); });
    });
  });
})();
