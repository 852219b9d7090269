/* The cabling table of the topology page: the version's links page by page, filtered by tier, plane,
 * rail, pod, device and medium (GET /api/versions/{id}/links/).
 *
 * window.fabricwebCabling: load() (the topology script calls it after its first picture, so both do
 * not compete for the server) and apply(filters) (a group's or a link's "Show these cables").
 */
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("topology-config").textContent);
  const fmt = (n) => (n === null || n === undefined ? "–" : Number(n).toLocaleString());
  const TIER_NAMES = [gettext("server–leaf"), gettext("leaf–spine"), gettext("spine–core")];

  function element(tag, text, className) {
    const el = document.createElement(tag);
    if (text !== undefined && text !== null) el.textContent = text;
    if (className) el.className = className;
    return el;
  }

  async function getJSON(url) {
    const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    const body = await response.json().catch(() => null);
    if (!response.ok) throw new Error(body ? Object.values(body).flat().join(" ") : String(response.status));
    return body;
  }

  const cablingForm = document.getElementById("cabling-filters");
  const cablingBody = document.querySelector("#cabling-table tbody");
  const cablingRange = document.getElementById("cabling-range");
  const prevButton = document.getElementById("cabling-prev");
  const nextButton = document.getElementById("cabling-next");
  const cabling = { offset: 0, limit: 25, count: 0, filters: {}, sequence: 0, network: "backend" };

  // The topology's network switcher picks the network; the table's filters apply inside it.
  function withNetwork(filters) {
    return cabling.network !== "backend" ? Object.assign({}, filters, { network: cabling.network }) : filters;
  }

  function readFilters() {
    const filters = {};
    for (const [name, value] of new FormData(cablingForm).entries()) {
      if (String(value).trim() !== "") filters[name] = String(value).trim();
    }
    return filters;
  }

  async function loadCabling() {
    const mine = ++cabling.sequence;
    const params = new URLSearchParams(Object.assign({}, cabling.filters, {
      limit: String(cabling.limit), offset: String(cabling.offset),
    }));
    cablingRange.textContent = gettext("Loading…");
    try {
      const data = await getJSON(config.linksUrl + "?" + params.toString());
      if (mine !== cabling.sequence) return;
      cabling.count = data.count;
      const rows = data.results.map((link) => {
        const tr = element("tr");
        tr.dataset.link = String(link.id);
        const cells = [
          `${link.a_device_name}:${link.a_port}`, `${link.b_device_name}:${link.b_port}`, TIER_NAMES[link.tier],
          link.plane, link.rail, link.pod, link.medium_kind + (link.fiber ? " " + link.fiber : ""), link.length_m,
          link.label_a, link.subnet, link.a_ip, link.b_ip,
        ];
        cells.forEach((value, i) => {
          const td = element("td", value === null || value === undefined ? "" : String(value));
          if ([2, 3, 4, 5, 7].includes(i)) td.className = "num";
          if (i === 6) td.title = link.medium;
          tr.append(td);
        });
        return tr;
      });
      if (!rows.length) {
        const tr = element("tr");
        const td = element("td", gettext("No links match these filters."), "muted");
        td.colSpan = 12;
        tr.append(td);
        rows.push(tr);
      }
      cablingBody.replaceChildren(...rows);
      const first = data.count ? cabling.offset + 1 : 0;
      const last = Math.min(cabling.offset + cabling.limit, data.count);
      cablingRange.textContent = interpolate(gettext("%(first)s–%(last)s of %(count)s links"),
        { first: fmt(first), last: fmt(last), count: fmt(data.count) }, true);
      prevButton.disabled = cabling.offset === 0;
      nextButton.disabled = cabling.offset + cabling.limit >= data.count;
      cablingForm.dataset.count = String(data.count);
    } catch (error) {
      if (mine === cabling.sequence) cablingRange.textContent = interpolate(gettext("Could not load the cabling: %s"), [error.message]);
    }
  }

  function applyCablingFilters(filters) {
    for (const control of cablingForm.elements) {
      if (!control.name) continue;
      const value = filters[control.name];
      control.value = value === undefined || value === null ? "" : String(value);
    }
    cabling.filters = withNetwork(readFilters());
    cabling.offset = 0;
    loadCabling();
    document.getElementById("cabling").scrollIntoView({ behavior: "smooth", block: "start" });
  }

  cablingForm.addEventListener("submit", (event) => {
    event.preventDefault();
    cabling.filters = withNetwork(readFilters());
    cabling.offset = 0;
    loadCabling();
  });
  cablingForm.addEventListener("reset", () => {
    setTimeout(() => { cabling.filters = withNetwork({}); cabling.offset = 0; loadCabling(); }, 0);
  });
  prevButton.addEventListener("click", () => { cabling.offset = Math.max(0, cabling.offset - cabling.limit); loadCabling(); });
  nextButton.addEventListener("click", () => { cabling.offset += cabling.limit; loadCabling(); });

  function setNetwork(network, load) {
    cabling.network = network || "backend";
    cabling.filters = withNetwork(readFilters());
    cabling.offset = 0;
    if (load) loadCabling();
  }

  // ?device=<name> (a link from a rack elevation) opens the table on that device's cables.
  const askedDevice = new URLSearchParams(window.location.search).get("device");
  if (askedDevice && cablingForm.elements.device) {
    cablingForm.elements.device.value = askedDevice;
    cabling.filters = withNetwork(readFilters());
  }

  window.fabricwebCabling = { load: loadCabling, apply: applyCablingFilters, setNetwork: setNetwork };
})();
