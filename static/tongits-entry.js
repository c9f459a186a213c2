/* Tonk Ledger, a Tong-its hand (templates/record_tongits.html): progressive enhancement only
 * (without it every row shows and the server reads only what the hand needs).
 * In a draw, the caller's own answer row is hidden once the caller is chosen, and a points row
 * shows only for the caller and the players who fight (a folder's points are never needed,
 * TONGITS.md §4.3). Nothing typed is cleared: a row hidden keeps its value for when it shows. */
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  ready(function () {
    var form = document.getElementById("record-form");
    if (!form || !form.querySelector("[data-answer-row]")) return;

    function chosen(name) {
      var input = form.querySelector('input[name="' + name + '"]:checked');
      return input ? input.value : null;
    }

    function follow() {
      var caller = chosen("who");
      form.querySelectorAll("[data-answer-row]").forEach(function (row) {
        row.hidden = row.getAttribute("data-answer-row") === caller;
      });
      form.querySelectorAll("[data-points-row]").forEach(function (row) {
        var seat = row.getAttribute("data-points-row");
        var wanted = caller === null || seat === caller || chosen("answer-" + seat) === "fight";
        // a row with a refusal beside it stays in sight
        row.hidden = !wanted && !row.querySelector(".error");
      });
    }

    form.addEventListener("change", follow);
    follow();
  });
})();
