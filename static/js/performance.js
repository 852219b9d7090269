/* The Performance page: poll a running job through the API until it finishes, then reload;
 * draw the charts of a finished run with Chart.js (loaded on demand; no eval, CSP-safe). */
(function () {
  "use strict";
  var card = document.getElementById("performance-run-card");
  if (!card) { return; }
  var status = card.getAttribute("data-status");
  if (status === "queued" || status === "running" || status === "retrying") {
    var poll = function () {
      fetch(card.getAttribute("data-api-url"), {credentials: "same-origin", headers: {"Accept": "application/json"}})
        .then(function (r) { return r.json(); })
        .then(function (data) {
          var bar = card.querySelector("progress");
          if (bar && data.job) { bar.value = data.job.percent; }
          if (data.job && ["succeeded", "failed", "lost"].indexOf(data.job.status) >= 0) { window.location.reload(); }
          else { window.setTimeout(poll, 1000); }
        })
        .catch(function () { window.setTimeout(poll, 3000); });
    };
    window.setTimeout(poll, 500);
    return;
  }
  var node = document.getElementById("performance-data");
  if (!node) { return; }
  var data = JSON.parse(node.textContent);
  var script = document.createElement("script");
  script.src = card.getAttribute("data-chart-src");
  script.addEventListener("load", function () { draw(window.Chart); });
  document.head.appendChild(script);

  function draw(Chart) {
    var L = data.labels;
    window.fabricwebPerformance = {charts: []};
    function add(id, config) {
      var canvas = document.getElementById(id);
      if (canvas) {
        window.fabricwebPerformance.charts.push(new Chart(canvas, config));
        canvas.setAttribute("data-drawn", "1");
      }
    }
    add("performance-collectives", {type: "bar", data: {
      labels: data.collectives.map(function (c) { return c.label; }),
      datasets: [{label: L.step_ms, data: data.collectives.map(function (c) { return c.step_ms; })}]},
      options: {indexAxis: "y", animation: false, maintainAspectRatio: false}});
    add("performance-busbw", {type: "line", data: {datasets: data.curves.map(function (c) {
      return {label: c.label, data: c.points}; })},
      options: {animation: false, maintainAspectRatio: false,
                scales: {x: {type: "logarithmic", title: {display: true, text: L.bytes},
                             ticks: {callback: function (v) { return size(v); }, autoSkip: true, maxRotation: 0}},
                         y: {min: 0, title: {display: true, text: L.busbw}}}}});
    // utilisation in % per tier and direction: horizontal bars, so the tier names never overlap
    add("performance-links", {type: "bar", data: {labels: data.tiers.map(function (t) { return t.label; }),
      datasets: ["mean", "p99", "max"].map(function (k) {
        return {label: L[k], data: data.tiers.map(function (t) { return t[k]; })}; })},
      options: {indexAxis: "y", animation: false, maintainAspectRatio: false,
                scales: {x: {min: 0, suggestedMax: 100, title: {display: true, text: L.utilisation}}}}});
    add("performance-scenarios", {type: "bar", data: {labels: data.scenarios.map(function (s) { return s.label; }),
      datasets: [{label: L.exposed_ms, data: data.scenarios.map(function (s) { return s.time_ms; })}]},
      options: {indexAxis: "y", animation: false, maintainAspectRatio: false}});
  }

  function size(v) {  // 1 MiB, 16 MiB, 1 GiB: powers of two only, other ticks left blank
    var units = ["B", "KiB", "MiB", "GiB", "TiB"], i = 0;
    if (Math.log2(v) % 1 !== 0) { return ""; }
    while (v >= 1024 && i < units.length - 1) { v /= 1024; i += 1; }
    return v + " " + units[i];
  }
})();
