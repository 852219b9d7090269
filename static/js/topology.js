/* The topology of a version with cytoscape.js, and the cabling table beside it.
 *
 * The first view comes aggregated from GET /api/versions/{id}/topology/ (groups with counts,
 * parallel links merged into one edge). Clicking a group or a switch fetches its children from
 * .../topology/expand/?node=<id>; collapsing asks for the whole view without that group.
 * Positions are computed here, cheaply and deterministically: tiers are horizontal layers (cores
 * on top, servers at the bottom) and every node stands in the column of its plane, pod and scale
 * unit, so a pod's spines sit above its leaves and servers. No force layout runs.
 *
 * What keeps the largest first view quick to draw: pods are boxes drawn behind their groups
 * (plain nodes sized here, not compound nodes), cy.fit() is never called (it measures every
 * label; the view is fitted from the positions computed here), and labels are styled only
 * when the zoom makes them readable.
 *
 * window.fabricwebTopology exposes the cytoscape instance and, for tests and benchmarks,
 * `ready` and `firstDrawMs` (performance.now() when the first view was drawn).
 */
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("topology-config").textContent);
  const container = document.getElementById("topology");
  const statusEl = document.getElementById("topology-status");
  const countsEl = document.getElementById("topology-counts");
  const detailsEl = document.getElementById("details-body");
  const legendEl = document.getElementById("topology-legend");
  const levelSelect = document.getElementById("topology-level");

  const RAIL_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd"];
  const PLANE_COLOURS = ["#1d4ed8", "#b45309", "#047857", "#be123c", "#6d28d9", "#0e7490", "#a16207", "#4d7c0f"];
  const ROLE_FILL = { server: "#e7ebf0", leaf: "#dbeafe", spine: "#ede9fe", core: "#fde2e2" };
  const TIER_COLOURS = ["#8b98a9", "#5b6b82", "#8a5a9e"];
  const LAYER_Y = { 3: 0, 2: 300, 1: 600, 0: 900 };
  const BAND_H = 850;  // a band of pods (or scale units) repeats the spine, leaf and server layers
  const BAND_MIN_COLUMNS = 12;
  const GAP = 22;
  const COLUMN_GAP = 56;
  const ROW_MAX = 16;  // more nodes than this in one layer of a column wrap into rows
  const ROW_STEP = 56;
  const PORT_W = 58;
  const PORT_H = 20;
  const PORTS_PER_ROW = 16;
  const BOX_PAD = 18;
  const LABEL_ZOOM = 0.6;  // below it an 11 px label is under min-zoomed-font-size anyway
  const TIER_NAMES = [gettext("server–leaf"), gettext("leaf–spine"), gettext("spine–core")];
  const ROLE_NAMES = { server: gettext("server"), leaf: gettext("leaf"), spine: gettext("spine"), core: gettext("core") };
  const POD_SIDES = new Set(["leafpod", "spinepod"]);

  const state = { level: "auto", expanded: [], busy: false, nextOffset: {}, network: "backend" };
  const api = {
    cy: null, ready: false, firstDrawMs: null, loadStartedMs: performance.now(), level: null, state: state,
    expand: expand, collapse: collapse, reload: reload, select: select,
  };
  window.fabricwebTopology = api;

  const railColour = (rail) => RAIL_COLOURS[((rail || 0) % RAIL_COLOURS.length + RAIL_COLOURS.length) % RAIL_COLOURS.length];
  const planeColour = (plane) => PLANE_COLOURS[(plane || 0) % PLANE_COLOURS.length];
  const fmt = (n) => (n === null || n === undefined ? "–" : Number(n).toLocaleString());

  const cy = window.cytoscape({
    container: container,
    elements: [],
    layout: { name: "preset" },
    minZoom: 0.01,
    maxZoom: 4,
    boxSelectionEnabled: false,
    autoungrabify: true,
    textureOnViewport: true,
    pixelRatio: 1,
    style: [
      { selector: "node", style: {
        "shape": "round-rectangle", "width": "data(w)", "height": "data(h)",
        "text-wrap": "wrap", "text-valign": "center", "text-halign": "center", "font-size": 11,
        "background-color": "data(fill)", "border-width": "data(borderWidth)", "border-color": "data(border)",
        "color": "#1d2430", "min-zoomed-font-size": 7, "z-index-compare": "manual", "z-index": 10,
      } },
      { selector: "node.labelled", style: { "label": "data(label)" } },
      { selector: "node[kind = 'port']", style: { "font-size": 8, "shape": "rectangle" } },
      { selector: ":parent", style: {
        "background-opacity": 0.05, "border-style": "dashed", "text-valign": "top", "text-halign": "center",
        "padding": 14, "font-size": 12, "font-weight": "bold",
      } },
      { selector: ":parent.labelled", style: { "label": "data(title)" } },
      { selector: "node[kind = 'box']", style: {
        "border-style": "solid", "border-color": "#9aa8ba", "background-color": "#64748b", "background-opacity": 0.06,
        "text-valign": "top", "font-size": 12, "font-weight": "bold", "z-index": 0,
      } },
      { selector: "node:selected", style: { "border-width": 4, "border-color": "#111827" } },
      { selector: "edge", style: {
        "curve-style": "straight", "width": "data(width)", "line-color": "data(colour)", "opacity": 0.7,
        "font-size": 9, "color": "#334155", "text-background-color": "#ffffff", "text-background-opacity": 0.85,
        "text-background-padding": 1, "min-zoomed-font-size": 9, "z-index-compare": "manual", "z-index": 5,
      } },
      { selector: "edge.labelled", style: { "label": "data(countLabel)" } },
      { selector: "edge:selected", style: { "line-color": "#111827", "width": 4, "opacity": 1 } },
    ],
  });
  api.cy = cy;

  // Elements -------------------------------------------------------------------------------

  // Width of a label in Latin characters: CJK ideographs and full-width punctuation are about twice as wide,
  // so Chinese labels ("SU 0 服务器") fit their node as English ones do.
  const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;
  function textUnits(line) {
    let units = 0;
    for (const ch of line) units += WIDE.test(ch) ? 1.85 : 1;
    return units;
  }

  function nodeSize(data) {
    if (data.kind === "port") return { w: PORT_W, h: PORT_H };
    const lines = String(data.label || "").split("\n");
    const longest = Math.max(...lines.map(textUnits));
    return { w: Math.max(64, Math.round(longest * 6.4 + 18)), h: Math.max(26, lines.length * 14 + 10) };
  }

  let labelsOn = false;

  function decorateNode(data) {
    // A pod's box is drawn behind its groups as a plain node (see the top of this file).
    if (data.parent && data.parent.startsWith("box:")) {
      data.box = data.parent;
      delete data.parent;
    }
    const size = nodeSize(data);
    data.w = size.w;
    data.h = size.h;
    data.title = data.title || String(data.label || "").split("\n")[0];
    data.fill = data.kind === "port" ? "#ffffff" : (ROLE_FILL[data.role] || "#f1f5f9");
    data.border = config.planes > 1 && data.plane !== null && data.plane !== undefined ? planeColour(data.plane) : "#8796a8";
    data.borderWidth = 1;
    if (data.kind === "dev" && data.role === "leaf" && data.rail !== null) {
      data.border = railColour(data.rail);
      data.borderWidth = 3;
    }
    return { group: "nodes", data: data, classes: labelsOn ? "labelled" : "" };
  }

  function decorateEdge(data) {
    // Server-leaf edges show their rail by colour when they carry one rail (see the API's rules).
    if (data.tier === 0) data.colour = data.rail === null || data.rail === undefined ? TIER_COLOURS[0] : railColour(data.rail);
    else data.colour = config.planes > 1 ? planeColour(data.plane) : TIER_COLOURS[data.tier] || "#64748b";
    data.width = Math.min(9, 1.2 + Math.log10(Math.max(1, data.count)) * 1.7);
    data.countLabel = data.count > 1 ? "×" + fmt(data.count) : "";
    return { group: "edges", data: data, classes: labelsOn ? "labelled" : "" };
  }

  function syncLabels() {
    const wanted = cy.zoom() >= LABEL_ZOOM;
    if (wanted === labelsOn) return;
    labelsOn = wanted;
    cy.batch(() => {
      if (wanted) cy.elements().addClass("labelled");
      else cy.elements().removeClass("labelled");
    });
  }

  let labelsPending = false;
  cy.on("zoom", () => {
    if (labelsPending) return;
    labelsPending = true;
    requestAnimationFrame(() => { labelsPending = false; syncLabels(); });
  });

  // Layout ---------------------------------------------------------------------------------

  function newColumn(key) { return { key: key, children: new Map(), items: { 0: [], 1: [], 2: [], 3: [] }, width: 0 }; }

  /* Positions (id -> {x, y}) for every node that is not a compound, from node data alone; pod
     boxes also get a size (boxes: id -> {w, h}) that covers everything in them. */
  function computePositions(datas) {
    const parents = new Set();
    const portsOf = new Map();
    const byId = new Map(datas.map((d) => [d.id, d]));
    const placed = [];
    for (const d of datas) {
      if (d.parent) parents.add(d.parent);
      if (d.kind === "port") {
        if (!portsOf.has(d.parent)) portsOf.set(d.parent, []);
        portsOf.get(d.parent).push(d);
      }
    }
    const root = newColumn(null);
    const loose = { 0: [], 1: [], 2: [], 3: [] };
    for (const d of datas) {
      if (d.kind === "port" || d.kind === "box") continue;
      if (parents.has(d.id) && d.kind !== "dev") continue;
      const ports = portsOf.get(d.id) || [];
      const item = { data: d, ports: ports, order: d.order || 0 };
      if (ports.length) {
        // Ports cabled upwards fill the top rows, ports cabled downwards the bottom rows.
        const byNumber = (a, b) => (a.order || 0) - (b.order || 0);
        const up = ports.filter((p) => p.toward !== "down").sort(byNumber);
        const down = ports.filter((p) => p.toward === "down").sort(byNumber);
        item.portRows = [];
        for (const side of [up, down]) {
          for (let i = 0; i < side.length; i += PORTS_PER_ROW) item.portRows.push(side.slice(i, i + PORTS_PER_ROW));
        }
        item.width = Math.min(PORTS_PER_ROW, Math.max(...item.portRows.map((r) => r.length))) * PORT_W;
      } else {
        item.width = d.w;
      }
      const layer = d.layer === null || d.layer === undefined ? 0 : d.layer;
      if (!Array.isArray(d.col)) { loose[layer].push(item); continue; }
      let column = root;
      for (const key of d.col) {
        const k = key === null ? -1 : key;
        if (!column.children.has(k)) column.children.set(k, newColumn(k));
        column = column.children.get(k);
      }
      column.items[layer].push(item);
    }
    const chunks = (items) => {
      const out = [];
      for (let i = 0; i < items.length; i += ROW_MAX) out.push(items.slice(i, i + ROW_MAX));
      return out;
    };
    const lineWidth = (items) => items.reduce((sum, item) => sum + item.width, 0) + GAP * Math.max(0, items.length - 1);
    const rowWidth = (items) => Math.max(0, ...chunks(items).map(lineWidth));
    const spanWidth = (kids) => kids.reduce((sum, kid) => sum + kid.width, 0) + COLUMN_GAP * Math.max(0, kids.length - 1);
    const aspect = Math.max(0.5, (container.clientWidth || 1000) / (container.clientHeight || 640));
    /* Many pods (or scale units) side by side make a thin strip: wrap them into bands whose
       overall shape is closest to the canvas's. */
    function bands(kids) {
      if (kids.length <= BAND_MIN_COLUMNS) return [kids];
      const average = spanWidth(kids) / kids.length + COLUMN_GAP;
      let best = kids.length;
      let bestScore = Infinity;
      for (let perBand = BAND_MIN_COLUMNS; perBand <= kids.length; perBand++) {
        const count = Math.ceil(kids.length / perBand);
        const score = Math.abs(Math.log((perBand * average) / (LAYER_Y[0] + (count - 1) * BAND_H) / aspect));
        if (score < bestScore) { bestScore = score; best = perBand; }
      }
      const out = [];
      for (let i = 0; i < kids.length; i += best) out.push(kids.slice(i, i + best));
      return out;
    }
    function measure(column, depth) {
      const kids = [...column.children.values()].sort((a, b) => a.key - b.key);
      kids.forEach((kid) => measure(kid, depth + 1));
      column.bands = depth === 1 ? bands(kids) : [kids];
      const kidsWidth = Math.max(0, ...column.bands.map(spanWidth));
      let own = 0;
      for (const layer of [0, 1, 2, 3]) {
        column.items[layer].sort((a, b) => a.order - b.order);
        own = Math.max(own, rowWidth(column.items[layer]));
      }
      column.width = Math.max(kidsWidth, own, 1);
      return column.width;
    }
    const positions = new Map();
    // Wrapped rows grow away from the neighbouring layer: spines and cores upwards, the rest down.
    function placeRow(items, x0, width, y, spread, layer) {
      const direction = layer >= 2 ? -1 : 1;
      chunks(items).forEach((line, r) => {
        const lineY = y + direction * r * ROW_STEP;
        const total = lineWidth(line);
        if (spread && total < width) {
          const slot = width / line.length;
          line.forEach((item, i) => placeItem(item, x0 + slot * (i + 0.5), lineY));
        } else {
          let x = x0 + (width - total) / 2;
          line.forEach((item) => { placeItem(item, x + item.width / 2, lineY); x += item.width + GAP; });
        }
      });
    }
    function placeItem(item, cx, y) {
      positions.set(item.data.id, { x: cx, y: y });
      placed.push(item);
      if (!item.ports.length) return;
      const top = y - ((item.portRows.length - 1) * (PORT_H + 4)) / 2;
      item.portRows.forEach((row, r) => {
        const left = cx - (row.length * PORT_W) / 2 + PORT_W / 2;
        row.forEach((port, i) => positions.set(port.id, { x: left + i * PORT_W, y: top + r * (PORT_H + 4) }));
      });
    }
    let lowest = 0;
    function place(column, x0, offset) {
      column.bands.forEach((band, i) => {
        let x = x0 + (column.width - spanWidth(band)) / 2;
        for (const kid of band) { place(kid, x, offset + i * BAND_H); x += kid.width + COLUMN_GAP; }
      });
      lowest = Math.max(lowest, offset + (column.bands.length - 1) * BAND_H);
      const spread = column.children.size > 0;
      for (const layer of [0, 1, 2, 3]) placeRow(column.items[layer], x0, column.width, LAYER_Y[layer] + offset, spread, layer);
    }
    measure(root, 0);
    place(root, 0, 0);
    for (const layer of [0, 1, 2, 3]) {
      loose[layer].sort((a, b) => a.order - b.order);
      placeRow(loose[layer], 0, Math.max(root.width, rowWidth(loose[layer])), LAYER_Y[layer] + lowest, true, layer);
    }
    const boxOf = (d) => {
      for (let cur = d; cur; cur = cur.parent ? byId.get(cur.parent) : null) if (cur.box) return cur.box;
      return null;
    };
    const bounds = new Map();
    for (const item of placed) {
      const box = boxOf(item.data);
      if (!box) continue;
      const p = positions.get(item.data.id);
      const h = item.ports.length ? item.portRows.length * (PORT_H + 4) + 30 : item.data.h;
      const b = bounds.get(box) || { x1: Infinity, y1: Infinity, x2: -Infinity, y2: -Infinity };
      b.x1 = Math.min(b.x1, p.x - item.width / 2); b.x2 = Math.max(b.x2, p.x + item.width / 2);
      b.y1 = Math.min(b.y1, p.y - h / 2); b.y2 = Math.max(b.y2, p.y + h / 2);
      bounds.set(box, b);
    }
    const boxes = new Map();
    for (const [id, b] of bounds) {
      positions.set(id, { x: (b.x1 + b.x2) / 2, y: (b.y1 + b.y2) / 2 });
      boxes.set(id, { w: b.x2 - b.x1 + 2 * BOX_PAD, h: b.y2 - b.y1 + 2 * BOX_PAD });
    }
    positions.boxes = boxes;
    return positions;
  }

  function applyBoxSize(data, positions) {
    const size = positions.boxes.get(data.id);
    if (size) { data.w = size.w; data.h = size.h; }
  }

  function relayout(newNodes) {
    const datas = cy.nodes().map((n) => n.data()).concat(newNodes ? newNodes.map((n) => n.data) : []);
    const positions = computePositions(datas);
    cy.nodes().forEach((node) => {
      if (node.isParent()) return;
      const p = positions.get(node.id());
      if (p) node.position(p);
      const size = positions.boxes.get(node.id());
      if (size) node.data({ w: size.w, h: size.h });
    });
    if (newNodes) {
      newNodes.forEach((n) => {
        const p = positions.get(n.data.id);
        if (p) n.position = p;
        applyBoxSize(n.data, positions);
      });
    }
  }

  // Loading --------------------------------------------------------------------------------

  async function getJSON(url) {
    const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    const body = await response.json().catch(() => null);
    if (!response.ok) {
      const message = body ? Object.values(body).flat().join(" ") : String(response.status);
      throw new Error(message);
    }
    return body;
  }

  function setStatus(text) { statusEl.textContent = text || ""; }

  function showCounts(data) {
    const levelName = levelSelect.querySelector(`option[value="${data.level}"]`);
    countsEl.textContent = interpolate(gettext("%(level)s · %(nodes)s nodes, %(edges)s edges"), {
      level: levelName ? levelName.textContent : data.level, nodes: fmt(cy.nodes().length), edges: fmt(cy.edges().length),
    }, true);
  }

  /* Fit the view from the positions and sizes we gave the nodes: cy.fit() would measure every
     label first, which costs more than drawing the largest first view. */
  function fitBoxes(boxes) {
    if (!boxes.length) return;
    let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
    for (const b of boxes) {
      x1 = Math.min(x1, b.x - b.w / 2); x2 = Math.max(x2, b.x + b.w / 2);
      y1 = Math.min(y1, b.y - b.h / 2); y2 = Math.max(y2, b.y + b.h / 2);
    }
    const pad = 44;
    const width = cy.width(), height = cy.height();
    const zoom = Math.max(cy.minZoom(), Math.min(cy.maxZoom(), 1.5,
      (width - 2 * pad) / Math.max(1, x2 - x1), (height - 2 * pad) / Math.max(1, y2 - y1)));
    cy.viewport({ zoom: zoom, pan: { x: width / 2 - zoom * (x1 + x2) / 2, y: height / 2 - zoom * (y1 + y2) / 2 } });
  }

  function fitAll() {
    fitBoxes(cy.nodes().filter((n) => !n.isParent()).map((n) => {
      const p = n.position();
      return { x: p.x, y: p.y, w: n.data("w"), h: n.data("h") };
    }));
  }

  function replaceAll(data, fit) {
    const nodes = data.elements.nodes.map((n) => decorateNode(n.data));
    const edges = data.elements.edges.map((e) => decorateEdge(e.data));
    cy.batch(() => {
      cy.elements().remove();
      const positions = computePositions(nodes.map((n) => n.data));
      nodes.forEach((n) => {
        const p = positions.get(n.data.id);
        if (p) n.position = p;
        applyBoxSize(n.data, positions);
      });
      if (fit) fitBoxes(nodes.filter((n) => n.position).map((n) => ({ x: n.position.x, y: n.position.y, w: n.data.w, h: n.data.h })));
      // Styled with labels only when they will be readable at this zoom.
      labelsOn = cy.zoom() >= LABEL_ZOOM;
      for (const element of nodes.concat(edges)) element.classes = labelsOn ? "labelled" : "";
      cy.add(nodes);
      cy.add(edges);
    });
    state.expanded = data.expanded || [];
    state.nextOffset = {};
    api.level = data.level;
    showCounts(data);
  }

  function path() {
    const params = new URLSearchParams({ level: state.level });
    if (state.network !== "backend") params.set("network", state.network);
    if (state.expanded.length) params.set("expanded", state.expanded.join(","));
    return params;
  }

  async function reload(options) {
    setStatus(gettext("Loading the topology…"));
    try {
      const asked = performance.now();
      const data = await getJSON(config.topologyUrl + "?" + path().toString());
      const received = performance.now();
      replaceAll(data, Boolean(options && options.fit));
      api.timings = { requestMs: received - asked, buildMs: performance.now() - received, askedAtMs: asked };
      setStatus("");
      return data;
    } catch (error) {
      setStatus(interpolate(gettext("Could not load the topology: %s"), [error.message]));
      return null;
    }
  }

  async function expand(id, offset) {
    if (state.busy) return null;
    state.busy = true;
    setStatus(gettext("Opening…"));
    try {
      const params = path();
      params.set("node", id);
      if (offset) params.set("offset", String(offset));
      const data = await getJSON(config.expandUrl + "?" + params.toString());
      const nodes = data.elements.nodes.map((n) => decorateNode(n.data));
      const edges = data.elements.edges.map((e) => decorateEdge(e.data));
      cy.batch(() => {
        const node = cy.getElementById(id);
        if (!offset) {
          node.connectedEdges().remove();
          if (data.replaced) node.remove();
        }
        const fresh = [];
        for (const n of nodes) {
          const existing = cy.getElementById(n.data.id);
          if (existing.nonempty()) existing.data(n.data);
          else fresh.push(n);
        }
        relayout(fresh);
        cy.add(fresh);
        const present = edges.filter((e) => cy.getElementById(e.data.id).empty()
          && cy.getElementById(e.data.source).nonempty() && cy.getElementById(e.data.target).nonempty());
        cy.add(present);
      });
      state.expanded = data.expanded || state.expanded;
      if (data.next_offset) state.nextOffset[id] = data.next_offset; else delete state.nextOffset[id];
      showCounts(data);
      setStatus("");
      const target = cy.getElementById(id);
      if (target.nonempty()) showNode(target);
      return data;
    } catch (error) {
      setStatus(interpolate(gettext("Could not open it: %s"), [error.message]));
      return null;
    } finally {
      state.busy = false;
    }
  }

  async function collapse(id) {
    const node = cy.getElementById(id);
    const gone = new Set([id]);
    if (id.startsWith("box:pod:")) {
      const [, , plane, pod] = id.split(":");
      gone.add(`leaf:${plane}:pod${pod}`);
      gone.add(`spine:${plane}:pod${pod}`);
    }
    if (node.nonempty()) node.descendants().forEach((d) => gone.add(d.id()));
    cy.nodes().filter((n) => n.data("box") === id).forEach((n) => {
      gone.add(n.id());
      n.descendants().forEach((d) => gone.add(d.id()));
    });
    state.expanded = state.expanded.filter((e) => !gone.has(e));
    await reload();
    const back = cy.getElementById(id);
    if (back.nonempty()) showNode(back); else showNothing();
  }

  // Details --------------------------------------------------------------------------------

  function element(tag, text, className) {
    const el = document.createElement(tag);
    if (text !== undefined && text !== null) el.textContent = text;
    if (className) el.className = className;
    return el;
  }

  function definitionList(rows) {
    const dl = element("dl");
    for (const [label, value] of rows) {
      if (value === null || value === undefined || value === "") continue;
      dl.append(element("dt", label), element("dd", String(value)));
    }
    return dl;
  }

  function button(text, onClick, id) {
    const b = element("button", text);
    b.type = "button";
    if (id) b.id = id;
    b.addEventListener("click", onClick);
    return b;
  }

  function showNothing() {
    detailsEl.replaceChildren(element("p", gettext("Nothing selected."), "muted"));
  }

  function cablesButton(filters) {
    if (!filters) return null;
    return button(gettext("Show these cables"), () => applyCablingFilters(filters), "details-cables");
  }

  function mediaTable(media) {
    const table = element("table", null, "data compact");
    const head = element("tr");
    head.append(element("th", gettext("Medium")), element("th", gettext("Length (m)")), element("th", gettext("Links")));
    table.append(head);
    for (const [kind, length, count] of media || []) {
      const row = element("tr");
      const n = element("td", fmt(count));
      n.className = "num";
      row.append(element("td", kind), element("td", String(length)), n);
      table.append(row);
    }
    return table;
  }

  function showNode(node) {
    const d = node.data();
    const parts = [element("h3", d.kind === "dev" || d.kind === "port" ? d.label : d.title)];
    if (d.kind === "dev") {
      parts.push(definitionList([
        [gettext("Role"), ROLE_NAMES[d.role] || d.role], [gettext("Model"), d.model], [gettext("SKU"), d.sku],
        [gettext("Plane"), d.plane], [gettext("Pod"), d.pod], [gettext("Scale unit"), d.su], [gettext("Rail"), d.rail],
        [gettext("Rack"), d.rack], [gettext("ASN"), d.asn], [gettext("Loopback"), d.loopback],
        [gettext("Ports"), d.ports],
      ]));
    } else if (d.kind === "port") {
      parts.push(definitionList([[gettext("Device"), d.device], [gettext("Port"), d.label],
        [gettext("Speed (Gb/s)"), d.speed_gbps]]));
    } else if (d.kind === "box") {
      parts.push(definitionList([[gettext("Plane"), d.plane], [gettext("Pod"), d.pod]]));
    } else {
      parts.push(definitionList([
        [gettext("Devices"), fmt(d.count)], [gettext("Role"), ROLE_NAMES[d.role] || d.role],
        [gettext("Plane"), d.plane], [gettext("Pod"), d.pod], [gettext("Scale unit"), d.su],
      ]));
    }
    const actions = element("div", null, "toolbar");
    const open = d.kind === "box" ? podSides(node).length > 0 : d.expandable && !node.isParent() && d.kind !== "port";
    if (open) actions.append(button(d.kind === "dev" ? gettext("Show ports") : gettext("Open"), () => openNode(node), "details-open"));
    if (state.nextOffset[d.id]) {
      actions.append(button(gettext("More ports"), () => expand(d.id, state.nextOffset[d.id]), "details-more"));
    }
    const collapsible = d.kind === "box"
      ? state.expanded.some((e) => e === d.id.replace(/^box:pod:p(\d+):(\d+)$/, "leaf:p$1:pod$2") || e === d.id.replace(/^box:pod:p(\d+):(\d+)$/, "spine:p$1:pod$2"))
      : state.expanded.includes(d.id);
    if (collapsible) actions.append(button(gettext("Collapse"), () => collapse(d.id), "details-collapse"));
    const cables = cablesButton(d.filters);
    if (cables) actions.append(cables);
    parts.push(actions);
    detailsEl.replaceChildren(...parts);
  }

  function showEdge(edge) {
    const d = edge.data();
    const parts = [];
    if (d.link) {
      parts.push(element("h3", gettext("Link")));
      parts.push(definitionList([
        [gettext("A end"), `${d.a_device}:${d.a_port}`], [gettext("B end"), `${d.b_device}:${d.b_port}`],
        [gettext("Tier"), TIER_NAMES[d.tier]], [gettext("Medium"), d.medium], [gettext("Fibre"), d.fiber],
        [gettext("Length (m)"), d.length_m], [gettext("Label (A end)"), d.label_a], [gettext("Label (B end)"), d.label_b],
        [gettext("Subnet"), d.subnet], [gettext("A address"), d.a_ip], [gettext("B address"), d.b_ip],
        [gettext("A-end module or cable"), d.a_sku], [gettext("B-end module"), d.b_sku],
        [gettext("Cable or fibre cord"), d.cable_sku],
      ]));
    } else {
      parts.push(element("h3", interpolate(ngettext("%s link", "%s links", d.count), [fmt(d.count)])));
      const source = cy.getElementById(d.source).data("title") || d.source;
      const target = cy.getElementById(d.target).data("title") || d.target;
      parts.push(definitionList([
        [gettext("From"), source], [gettext("To"), target], [gettext("Tier"), TIER_NAMES[d.tier]],
        [gettext("Plane"), d.plane], [gettext("Rail"), d.tier === 0 ? d.rail : null], [gettext("Pod"), d.pod],
        [gettext("Rails"), d.rail === null && d.rails && d.rails.length > 1
          ? d.rails.map(([rail, n]) => `${rail}: ${fmt(n)}`).join(", ") : null],
      ]));
      parts.push(mediaTable(d.media));
    }
    const actions = element("div", null, "toolbar");
    const cables = cablesButton(d.filters);
    if (cables) actions.append(cables);
    parts.push(actions);
    detailsEl.replaceChildren(...parts);
  }

  function podSides(box) {
    return cy.nodes().filter((c) => c.data("box") === box.id() && POD_SIDES.has(c.data("kind")) && !c.isParent())
      .map((c) => c.id());
  }

  async function openNode(node) {
    const d = node.data();
    if (d.kind === "box") {
      for (const side of podSides(node)) await expand(side);
      const box = cy.getElementById(d.id);
      if (box.nonempty()) showNode(box);
      return;
    }
    if (d.expandable && !node.isParent() && d.kind !== "port") await expand(d.id);
  }

  function select(id) {
    const ele = cy.getElementById(id);
    if (ele.empty()) return false;
    cy.elements(":selected").unselect();
    ele.select();
    if (ele.isEdge()) showEdge(ele); else showNode(ele);
    return true;
  }

  cy.on("tap", (event) => {
    const target = event.target;
    if (target === cy) { showNothing(); return; }
    if (target.isEdge()) { showEdge(target); return; }
    showNode(target);
    const d = target.data();
    if (d.kind === "box" || (d.expandable && !target.isParent() && d.kind !== "port")) openNode(target);
  });

  // Legend ---------------------------------------------------------------------------------

  function legend() {
    const items = [];
    const chip = (colour, text) => {
      const span = element("span");
      const c = element("span", null, "chip");
      c.style.background = colour;
      span.append(c, text);
      return span;
    };
    items.push(element("span", gettext("Rails:"), "legend-title"));
    for (let rail = 0; rail < config.rails; rail++) items.push(chip(railColour(rail), String(rail)));
    if (config.planes > 1) {
      items.push(element("span", gettext("Planes:"), "legend-title"));
      for (let plane = 0; plane < config.planes; plane++) items.push(chip(planeColour(plane), String(plane)));
    } else {
      items.push(element("span", gettext("Tiers:"), "legend-title"));
      for (let tier = 0; tier < Math.min(3, config.tiers); tier++) items.push(chip(TIER_COLOURS[tier], TIER_NAMES[tier]));
    }
    items.push(element("span", gettext("Devices:"), "legend-title"));
    for (const role of ["server", "leaf", "spine", "core"]) {
      if (role === "core" && config.tiers < 3) continue;
      items.push(chip(ROLE_FILL[role], ROLE_NAMES[role]));
    }
    legendEl.replaceChildren(...items);
  }

  // Cabling table ---------------------------------------------------------------------------

  const cablingForm = document.getElementById("cabling-filters");
  const cablingBody = document.querySelector("#cabling-table tbody");
  const cablingRange = document.getElementById("cabling-range");
  const prevButton = document.getElementById("cabling-prev");
  const nextButton = document.getElementById("cabling-next");
  const cabling = { offset: 0, limit: 25, count: 0, filters: {}, sequence: 0 };

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
    cabling.filters = readFilters();
    cabling.offset = 0;
    loadCabling();
    document.getElementById("cabling").scrollIntoView({ behavior: "smooth", block: "start" });
  }

  cablingForm.addEventListener("submit", (event) => {
    event.preventDefault();
    cabling.filters = Object.assign(readFilters(), state.network !== "backend" ? { network: state.network } : {});
    cabling.offset = 0;
    loadCabling();
  });
  cablingForm.addEventListener("reset", () => {
    setTimeout(() => {
      cabling.filters = state.network !== "backend" ? { network: state.network } : {};
      cabling.offset = 0;
      loadCabling();
    }, 0);
  });
  prevButton.addEventListener("click", () => { cabling.offset = Math.max(0, cabling.offset - cabling.limit); loadCabling(); });
  nextButton.addEventListener("click", () => { cabling.offset += cabling.limit; loadCabling(); });

  // Start ----------------------------------------------------------------------------------

  document.getElementById("topology-fit").addEventListener("click", fitAll);
  document.getElementById("topology-reset").addEventListener("click", async () => {
    state.expanded = [];
    await reload({ fit: true });
    showNothing();
  });
  levelSelect.addEventListener("change", async () => {
    state.level = levelSelect.value;
    state.expanded = [];
    await reload({ fit: true });
    showNothing();
  });

  // The network switcher: the cluster's other networks are drawn one node per group; the cabling table follows.
  const networkSelect = document.getElementById("topology-network");
  if (networkSelect) {
    // ?network=frontend opens the page on that network (a link to it, or a benchmark).
    const asked = new URLSearchParams(window.location.search).get("network");
    if (asked && networkSelect.querySelector(`option[value="${CSS.escape(asked)}"]`)) {
      networkSelect.value = asked;
      state.network = asked;
      levelSelect.disabled = asked !== "backend";
      if (asked !== "backend") cabling.filters = { network: asked };
    }
    networkSelect.addEventListener("change", async () => {
      state.network = networkSelect.value;
      state.expanded = [];
      levelSelect.disabled = state.network !== "backend";
      await reload({ fit: true });
      showNothing();
      cabling.filters = Object.assign(readFilters(), state.network !== "backend" ? { network: state.network } : {});
      cabling.offset = 0;
      loadCabling();
    });
  }

  legend();
  reload({ fit: true }).then((data) => {
    if (!data) { loadCabling(); return; }
    cy.one("render", () => {
      api.firstDrawMs = performance.now();
      api.ready = true;
      container.dataset.ready = "true";
      // The cabling table waits for the first picture, so both do not compete for the server.
      loadCabling();
    });
  });
})();
