/* clarq leaderboard: sortable tables and the dialogue filter.
   Reads only attributes and textContent written by the site builder; never builds HTML from strings. */
(function () {
  "use strict";

  function cellKey(row, index, numeric) {
    var cell = row.cells[index];
    var raw = cell ? cell.getAttribute("data-value") : null;
    if (raw === null) { raw = cell ? cell.textContent : ""; }
    if (numeric) {
      var n = parseFloat(raw);
      return isNaN(n) ? null : n;
    }
    return raw.toLowerCase();
  }

  function sortBy(table, th, index) {
    var numeric = th.getAttribute("data-type") === "number";
    var current = th.getAttribute("aria-sort");
    var first = th.getAttribute("data-first") || (numeric ? "descending" : "ascending");
    var order = current ? (current === "ascending" ? "descending" : "ascending") : first;
    var sign = order === "ascending" ? 1 : -1;
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellKey(a, index, numeric), y = cellKey(b, index, numeric);
      if (x === y) { return 0; }
      if (x === null) { return 1; }   /* blanks last, whatever the order */
      if (y === null) { return -1; }
      return (x < y ? -1 : 1) * sign;
    });
    rows.forEach(function (row, position) {
      body.appendChild(row);
      var rank = row.querySelector("td.rank");
      if (rank) { rank.textContent = String(position + 1); }
    });
    Array.prototype.forEach.call(table.querySelectorAll("thead th"), function (other) {
      other.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", order);
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    Array.prototype.forEach.call(table.querySelectorAll("thead th"), function (th, index) {
      if (th.hasAttribute("data-nosort")) { return; }
      th.classList.add("sort-key");
      th.tabIndex = 0;
      th.addEventListener("click", function () { sortBy(table, th, index); });
      th.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortBy(table, th, index); }
      });
    });
  });

  var dialogues = Array.prototype.slice.call(document.querySelectorAll("details.dialogue"));
  var failures = document.getElementById("only-failures");
  var language = document.getElementById("language-filter");
  var shown = document.getElementById("shown-count");
  /* the viewer's extra filters: <select data-filter="data-ATTR">, a dialogue shows when its attribute matches */
  var selects = Array.prototype.slice.call(document.querySelectorAll("select[data-filter]"));

  function applyFilter() {
    var count = 0;
    dialogues.forEach(function (dialogue) {
      var hide = (failures && failures.checked && dialogue.getAttribute("data-success") === "1") ||
        (language && language.value && dialogue.getAttribute("data-lang") !== language.value) ||
        selects.some(function (select) {
          return select.value && dialogue.getAttribute(select.getAttribute("data-filter")) !== select.value;
        });
      dialogue.hidden = Boolean(hide);
      if (!hide) { count += 1; }
    });
    if (shown) { shown.textContent = String(count); }
  }

  if (failures) { failures.addEventListener("change", applyFilter); }
  if (language) { language.addEventListener("change", applyFilter); }
  selects.forEach(function (select) { select.addEventListener("change", applyFilter); });
  if (dialogues.length) {
    if (failures && window.location.hash === "#failures") { failures.checked = true; }
    applyFilter();
    var target = window.location.hash ? document.getElementById(window.location.hash.slice(1)) : null;
    if (target && target.tagName === "DETAILS") { target.open = true; target.scrollIntoView(); }
  }
})();
