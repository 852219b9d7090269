/* Version pages: the version switcher and the cost breakdown chart (Chart.js). */
(function () {
  "use strict";
  const switcher = document.getElementById("version-switch");
  if (switcher) switcher.addEventListener("change", () => window.location.assign(switcher.value));

  const data = document.getElementById("cost-data");
  const canvas = document.getElementById("cost-chart");
  if (!data || !canvas || !window.Chart) return;
  const rows = JSON.parse(data.textContent);
  // Amounts in the reader's language and the version's currency: "2M" / "200万" on the axis, the full figure
  // with its currency in the tooltip, as the table beside the chart writes them.
  const lang = document.documentElement.lang || undefined;
  const currency = canvas.dataset.currency || "";
  const compact = new Intl.NumberFormat(lang, { notation: "compact", maximumFractionDigits: 1 });
  const full = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
  const colours = ["#1f6feb", "#8250df", "#1a7f37", "#bf8700", "#cf222e", "#57606a"];
  window.fabricwebCostChart = new window.Chart(canvas, {
    type: "bar",
    data: {
      labels: rows.map((row) => row.label),
      datasets: [{
        label: gettext("Cost"),
        data: rows.map((row) => row.total),
        backgroundColor: rows.map((_row, i) => colours[i % colours.length]),
      }],
    },
    options: {
      indexAxis: "y",
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: {
        legend: { display: false },
        tooltip: { callbacks: { label: (item) => full.format(item.parsed.x) + " " + currency } },
      },
      scales: {
        x: {
          beginAtZero: true,
          ticks: { callback: (value) => compact.format(value) },
          title: { display: Boolean(currency), text: interpolate(gettext("Cost (%(currency)s)"), { currency: currency }, true) },
        },
      },
    },
  });
})();
