/* RoCE and Traffic sections of the design page (apps/designs/analysis/panels.py).
 *
 * Traffic: draws the stored report (json_script "traffic-data", labels already translated) with
 * Chart.js: a per-link load histogram per collective (ECMP vs hash-aware), the effective bandwidth
 * and the worst/mean link per collective and strategy. Re-runs the analysis through the API and
 * opens the result (?traffic=<id>), polling while a worker runs it.
 * RoCE: previews one device's config file from the API.
 * Both panels include this script; it runs once.
 */
(function () {
  "use strict";
  if (window.fabricwebAnalysis) { return; }
  window.fabricwebAnalysis = {charts: []};

  var COLORS = {"ecmp": "#d1495b", "hash-aware": "#2e86ab"};

  function withChart(src, callback) {
    if (window.Chart) { callback(window.Chart); return; }
    var script = document.querySelector("script[data-analysis-chartjs]");
    if (!script) {
      script = document.createElement("script");
      script.src = src;
      script.setAttribute("data-analysis-chartjs", "");
      document.head.appendChild(script);
    }
    script.addEventListener("load", function () { callback(window.Chart); });
  }

  function readJSON(id) {
    var element = document.getElementById(id);
    return element ? JSON.parse(element.textContent) : null;
  }

  function strategyKeys(data) {
    var keys = [];
    data.patterns.forEach(function (p) {
      p.strategies.forEach(function (s) { if (keys.indexOf(s.key) < 0) { keys.push(s.key); } });
    });
    return keys;
  }

  function strategyLabel(data, key) {
    for (var i = 0; i < data.patterns.length; i++) {
      for (var j = 0; j < data.patterns[i].strategies.length; j++) {
        if (data.patterns[i].strategies[j].key === key) { return data.patterns[i].strategies[j].label; }
      }
    }
    return key;
  }

  function chart(Chart, canvas, config) {
    config.options = Object.assign({responsive: true, maintainAspectRatio: false, animation: false}, config.options);
    window.fabricwebAnalysis.charts.push(new Chart(canvas, config));
    canvas.setAttribute("data-drawn", "1");
  }

  function grouped(Chart, data, id, value, axis, suggestedMax) {
    var canvas = document.getElementById(id);
    if (!canvas) { return; }
    var datasets = strategyKeys(data).map(function (key) {
      return {
        label: strategyLabel(data, key),
        backgroundColor: COLORS[key] || "#888888",
        data: data.patterns.map(function (p) {
          var found = p.strategies.filter(function (s) { return s.key === key; })[0];
          return found ? value(found) : null;
        })
      };
    });
    chart(Chart, canvas, {
      type: "bar",
      data: {labels: data.patterns.map(function (p) { return p.label; }), datasets: datasets},
      options: {scales: {
        x: {title: {display: true, text: data.labels.collective}},
        y: {beginAtZero: true, suggestedMax: suggestedMax, title: {display: true, text: axis}}
      }}
    });
  }

  function drawTraffic(panel) {
    var data = readJSON("traffic-data");
    if (!data || !data.patterns) { return; }
    withChart(panel.getAttribute("data-chart-src"), function (Chart) {
      data.patterns.forEach(function (p) {
        var canvas = document.getElementById("traffic-hist-" + p.key);
        if (!canvas) { return; }
        chart(Chart, canvas, {
          type: "bar",
          data: {
            labels: p.bins,
            datasets: p.strategies.map(function (s) {
              return {label: s.label, data: s.histogram, backgroundColor: COLORS[s.key] || "#888888"};
            })
          },
          options: {scales: {
            x: {title: {display: true, text: data.labels.utilisation}},
            y: {beginAtZero: true, title: {display: true, text: data.labels.links}}
          }}
        });
      });
      grouped(Chart, data, "traffic-effective", function (s) {
        return Math.round(s.effective_bandwidth * 1000) / 10;
      }, data.labels.effective, 100);
      grouped(Chart, data, "traffic-worst-mean", function (s) {
        return Math.round(s.worst_over_mean * 100) / 100;
      }, data.labels.worst_over_mean, 2);
    });
  }

  function csrfToken(form) {
    var input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function openAnalysis(id) {
    window.location.assign(window.location.pathname + "?traffic=" + encodeURIComponent(id) + "#panel-traffic");
  }

  function setupRun(panel) {
    var form = document.getElementById("traffic-run-form");
    if (!form) { return; }
    var status = document.getElementById("traffic-run-status");
    var apiUrl = panel.getAttribute("data-api-url");

    function follow(analysis) {
      if (analysis.status === "succeeded") { openAnalysis(analysis.id); return; }
      if (analysis.status === "failed") {
        status.textContent = panel.getAttribute("data-failed") + " " + analysis.error;
        return;
      }
      status.textContent = panel.getAttribute("data-queued");
      window.setTimeout(function () {
        fetch(apiUrl + analysis.id + "/", {credentials: "same-origin", headers: {"Accept": "application/json"}})
          .then(function (response) { return response.json(); })
          .then(follow);
      }, 1500);
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var body = {
        pattern: form.elements.pattern.value,
        max_flows: form.elements.max_flows.value.trim(),
        seed: form.elements.seed.value.trim()
      };
      var invalid = !/^\d+$/.test(body.max_flows) || !/^\d+$/.test(body.seed);
      // optional: empty means "not given" (the server then uses NCCL's per-step figure)
      ["switch_latency_ns", "nic_latency_ns"].forEach(function (name) {
        var value = form.elements[name] ? form.elements[name].value.trim() : "";
        if (value === "") { return; }
        if (!/^\d+$/.test(value)) { invalid = true; }
        body[name] = value;
      });
      if (invalid) {
        status.textContent = panel.getAttribute("data-invalid");
        return;
      }
      status.textContent = panel.getAttribute("data-running");
      fetch(apiUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: {"Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrfToken(form)},
        body: JSON.stringify(body)
      }).then(function (response) {
        return response.json().then(function (json) { return {code: response.status, body: json}; });
      }).then(function (result) {
        if (result.code === 201 || result.code === 202) { follow(result.body); return; }
        var messages = [];
        Object.keys(result.body || {}).forEach(function (name) {
          var value = result.body[name];
          messages.push(name + ": " + (Array.isArray(value) ? value.join(" ") : value));
        });
        status.textContent = messages.join("; ");
      });
    });
  }

  function setupPreview(panel) {
    var form = document.getElementById("roce-preview-form");
    var pre = document.getElementById("roce-preview");
    var caption = document.getElementById("roce-preview-name");
    if (!form || !pre) { return; }

    function show(name) {
      if (!name) { return; }
      var url = panel.getAttribute("data-device-url").replace("{device}", encodeURIComponent(name));
      var format = document.getElementById("roce-preview-format");
      if (format && format.value === "nos") { url += "?file=nos"; }
      fetch(url, {credentials: "same-origin"}).then(function (response) {
        caption.hidden = false;
        if (!response.ok) {
          caption.textContent = panel.getAttribute(response.status === 404 ? "data-not-found" : "data-failed");
          pre.hidden = true;
          return null;
        }
        caption.textContent = response.headers.get("X-Config-Path") || name;
        return response.text().then(function (text) {
          pre.textContent = text;
          pre.hidden = false;
          pre.setAttribute("data-device", name);
        });
      });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      show(document.getElementById("roce-preview-device").value.trim());
    });
    Array.prototype.forEach.call(form.querySelectorAll(".roce-sample"), function (button) {
      button.addEventListener("click", function () { show(button.getAttribute("data-device")); });
    });
  }

  function init() {
    var traffic = document.getElementById("traffic-panel");
    if (traffic) {
      drawTraffic(traffic);
      setupRun(traffic);
    }
    var roce = document.getElementById("roce-panel");
    if (roce) { setupPreview(roce); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
