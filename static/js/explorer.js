/* The explorer page (apps/explorer): a scatter chart of cost against growth with the Pareto frontier
 * highlighted (Chart.js, vendored), a table sorted by clicking its headers, and filters that hide rows
 * and points alike (frontier only, tiers, as stated only). Candidates come from json_script
 * "explore-data" with their labels already translated; row i of the table is candidate i.
 */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("explore-data").textContent);
  var table = document.getElementById("explore-table");
  var canvas = document.getElementById("explore-chart");
  var chart = null;
  window.fabricwebExplorer = {chart: null, visible: []};

  function filters() {
    return {
      frontier: document.getElementById("filter-frontier").checked,
      tiers: document.getElementById("filter-tiers").value,
      stated: document.getElementById("filter-stated").checked
    };
  }

  function shown(c, f) {
    if (f.frontier && !c.pareto) { return false; }
    if (f.tiers && String(c.tiers) !== f.tiers) { return false; }
    if (f.stated && !c.as_stated) { return false; }
    return true;
  }

  function points(f, pick) {
    var out = [];
    data.forEach(function (c, i) {
      if (shown(c, f) && pick(c)) { out.push({x: c.total_cost, y: c.max_gpus, i: i}); }
    });
    return out;
  }

  function draw() {
    var f = filters();
    var frontier = points(f, function (c) { return c.pareto; }).sort(function (a, b) { return a.x - b.x; });
    var datasets = [
      {label: gettext("Pareto frontier"), data: frontier, showLine: true, borderColor: "#1a7f37",
       backgroundColor: "#1a7f37", pointRadius: 5},
      {label: gettext("Other candidates"), data: points(f, function (c) { return !c.pareto && !c.blocking; }),
       borderColor: "#8c959f", backgroundColor: "#8c959f", pointRadius: 3},
      {label: gettext("Blocking"), data: points(f, function (c) { return c.blocking; }),
       borderColor: "#cf222e", backgroundColor: "#cf222e", pointRadius: 3, pointStyle: "crossRot"}
    ];
    var rows = table.tBodies[0].rows;
    var visible = [];
    for (var r = 0; r < rows.length; r++) {
      var i = Number(rows[r].getAttribute("data-candidate"));
      rows[r].hidden = !shown(data[i], f);
      if (!rows[r].hidden) { visible.push(i); }
    }
    window.fabricwebExplorer.visible = visible;
    if (!canvas || !window.Chart) { return; }
    if (chart) {
      chart.data.datasets = datasets;
      chart.update();
      return;
    }
    chart = new window.Chart(canvas, {
      type: "scatter",
      data: {datasets: datasets},
      options: {
        responsive: true, maintainAspectRatio: false, animation: false,
        scales: {
          x: {title: {display: true, text: gettext("Total cost")}},
          y: {type: "logarithmic", title: {display: true, text: gettext("Grows to (GPUs)")}}
        },
        plugins: {tooltip: {callbacks: {label: function (ctx) {
          var c = data[ctx.raw.i];
          return c.label + ": " + Math.round(c.total_cost).toLocaleString() + " " + c.currency;
        }}}}
      }
    });
    window.fabricwebExplorer.chart = chart;
    canvas.setAttribute("data-drawn", "1");
  }

  function sortBy(th) {
    var index = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = th.getAttribute("data-sort") === "num";
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(th.parentNode.children, function (other) { other.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[index].getAttribute("data-value"), y = b.cells[index].getAttribute("data-value");
      var order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }

  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
    if (th.hasAttribute("data-sort")) { th.addEventListener("click", function () { sortBy(th); }); }
  });
  ["filter-frontier", "filter-tiers", "filter-stated"].forEach(function (id) {
    document.getElementById(id).addEventListener("change", draw);
  });
  draw();
}());
