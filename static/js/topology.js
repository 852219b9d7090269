/* The topology of a version with cytoscape.js (the cabling table below it: topology_cabling.js).
 *
 * The first view comes aggregated from GET /api/versions/{id}/topology/ (groups with counts,
 * parallel links merged into one edge). Clicking a group or a switch fetches its children from
 * .../topology/expand/?node=<id>; collapsing asks for the whole view without that group.
 * Positions come from static/js/topology_layout.js, cheaply and deterministically: tiers are
 * horizontal layers (cores on top, servers at the bottom) and every node stands in the column of
 * its plane, pod and scale unit, so a pod's spines sit above its leaves and servers.
 *
 * Only the layers a design has are drawn, each as far below the previous one as its wrapped
 * rows need, so a 2-tier design fills the canvas instead of leaving room for cores.
 *
 * Readable at every level: labels are LABEL_FONT px in the model and the view never zooms out
 * below LABEL_ZOOM (MIN_LABEL_PX on screen), so every node in view shows its label; what does not
 * fit is reached by panning. The first view must fit: when it would not fit at a readable zoom,
 * the next coarser level is asked for (aggregated nodes carry a short name and a count). The
 * automatic first view of a large fabric is the overview: every plane side by side with its
 * first pods or scale units and a range for the rest, every tier, a count on every edge. Link
 * counts that would overlap one already placed are hidden until the zoom makes room
 * (declutterCounts).
 *
 * Multi-plane designs open with every plane side by side (the plane switcher draws one plane at
 * a time; the API's `plane`); the schematic below draws the planes as side-by-side panels. A tap
 * inside a pod box or an open group selects the box unless the pointer is on an edge's drawn line
 * (pod before edge). Opening a group lays its children out in its place in their tiers, keeps the
 * rest of the picture and its links, and brings the opened part into view (with the groups it links
 * to when they fit at a readable zoom); a switch's ports are listed in the side panel, grouped into
 * downlinks and uplinks. The other networks (front-end, storage, OOB) open the same way: a group
 * into its devices, or into blocks of devices when it has many.
 *
 * What keeps the largest first view quick to draw: pods are boxes drawn behind their groups
 * (plain nodes sized here, not compound nodes), cy.fit() is never called (it measures every
 * label; the view is fitted from the positions computed here), and labels are styled only
 * when the zoom makes them readable.
 *
 * window.fabricwebTopology exposes the cytoscape instance and, for tests and benchmarks,
 * `ready`, `firstDrawMs` (performance.now() when the first view was drawn) and `labelSizes()`.
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

  // Colours come from the server (apps.designs.api.topology.drawing), shared with the schematic.
  const RAIL_COLOURS = config.railColours;
  const PLANE_COLOURS = config.planeColours;
  const ROLE_FILL = config.roleFill;
  const TIER_COLOURS = ["#8b98a9", "#5b6b82", "#8a5a9e"];
  const PORT_W = 58;
  const PORT_H = 20;
  const LABEL_FONT = 12;
  const MIN_LABEL_PX = 11;
  // The smallest zoom (a hair above MIN_LABEL_PX / LABEL_FONT, so rounding never hides a label).
  const LABEL_ZOOM = (MIN_LABEL_PX + 0.05) / LABEL_FONT;
  const TIER_NAMES = [gettext("server–leaf"), gettext("leaf–spine"), gettext("spine–core")];
  const ROLE_NAMES = { server: gettext("server"), leaf: gettext("leaf"), spine: gettext("spine"), core: gettext("core") };
  const POD_SIDES = new Set(["leafpod", "spinepod"]);

  const planeSelect = document.getElementById("topology-plane");
  const networkSelectEl = document.getElementById("topology-network");
  const state = { level: "auto", plane: "all", expanded: [], busy: false, nextOffset: {}, network: "backend",
                  openedFrom: {} };
  const api = {
    cy: null, ready: false, firstDrawMs: null, loadStartedMs: performance.now(), level: null, state: state,
    expand: expand, collapse: collapse, reload: reload, select: select, labelSizes: labelSizes, config: config,
  };
  window.fabricwebTopology = api;

  const railColour = (rail) => RAIL_COLOURS[((rail || 0) % RAIL_COLOURS.length + RAIL_COLOURS.length) % RAIL_COLOURS.length];
  const planeColour = (plane) => PLANE_COLOURS[(plane || 0) % PLANE_COLOURS.length];
  const fmt = (n) => (n === null || n === undefined ? "–" : Number(n).toLocaleString());

  const cy = window.cytoscape({
    container: container,
    elements: [],
    layout: { name: "preset" },
    minZoom: LABEL_ZOOM,
    maxZoom: 4,
    boxSelectionEnabled: false,
    autoungrabify: true,
    textureOnViewport: true,
    pixelRatio: 1,
    style: [
      { selector: "node", style: {
        "shape": "round-rectangle", "width": "data(w)", "height": "data(h)",
        "text-wrap": "wrap", "text-valign": "center", "text-halign": "center", "font-size": LABEL_FONT,
        "background-color": "data(fill)", "border-width": "data(borderWidth)", "border-color": "data(border)",
        "color": "#1d2430", "min-zoomed-font-size": MIN_LABEL_PX, "z-index-compare": "manual", "z-index": 10,
      } },
      { selector: "node.labelled", style: { "label": "data(label)" } },
      { selector: "node[kind = 'port']", style: { "shape": "rectangle" } },
      { selector: ":parent", style: {
        "background-opacity": 0.05, "border-style": "dashed", "text-valign": "top", "text-halign": "center",
        "padding": 14, "font-size": LABEL_FONT + 1, "font-weight": "bold",
      } },
      { selector: ":parent.labelled", style: { "label": "data(title)" } },
      { selector: "node[kind = 'box']", style: {
        "border-style": "solid", "border-color": "#9aa8ba", "background-color": "#64748b", "background-opacity": 0.06,
        "text-valign": "top", "font-size": LABEL_FONT + 1, "font-weight": "bold", "z-index": 0,
      } },
      { selector: "node:selected", style: { "border-width": 4, "border-color": "#111827" } },
      { selector: "edge", style: {
        "curve-style": "straight", "width": "data(width)", "line-color": "data(colour)", "opacity": 0.7,
        "font-size": LABEL_FONT, "color": "#334155", "text-background-color": "#ffffff",
        "text-background-opacity": 0.9, "text-background-padding": 2, "min-zoomed-font-size": MIN_LABEL_PX,
        "z-index-compare": "manual", "z-index": 5,
      } },
      { selector: "edge.labelled", style: { "label": "data(countLabel)" } },
      { selector: "edge.labelled.crowded", style: { "label": "" } },
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
    return { w: Math.max(70, Math.round(longest * 7 + 20)), h: Math.max(28, lines.length * 15 + 12) };
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
    else if (data.plane === null || data.plane === undefined || config.planes < 2) data.colour = TIER_COLOURS[data.tier] || "#64748b";
    else data.colour = planeColour(data.plane);
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
  cy.on("viewport", () => {
    if (labelsPending) return;
    labelsPending = true;
    requestAnimationFrame(() => { labelsPending = false; syncLabels(); declutterCounts(); });
  });

  /* Link counts that would overlap a count already placed (larger counts first) or a node are
     hidden; zooming in makes room and shows them. */
  function declutterCounts() {
    if (!labelsOn) return;
    const cell = 40;
    const grid = new Map();
    const w = cy.width(), h = cy.height();
    const key = (x, y) => `${x},${y}`;
    const collides = (box) => {
      for (let gx = Math.floor(box.x1 / cell); gx <= Math.floor(box.x2 / cell); gx++) {
        for (let gy = Math.floor(box.y1 / cell); gy <= Math.floor(box.y2 / cell); gy++) {
          for (const other of grid.get(key(gx, gy)) || []) {
            if (box.x1 < other.x2 && other.x1 < box.x2 && box.y1 < other.y2 && other.y1 < box.y2) return true;
          }
        }
      }
      return false;
    };
    const occupy = (box) => {
      for (let gx = Math.floor(box.x1 / cell); gx <= Math.floor(box.x2 / cell); gx++) {
        for (let gy = Math.floor(box.y1 / cell); gy <= Math.floor(box.y2 / cell); gy++) {
          const k = key(gx, gy);
          if (!grid.has(k)) grid.set(k, []);
          grid.get(k).push(box);
        }
      }
    };
    const zoom = cy.zoom();
    cy.nodes().forEach((n) => {
      if (n.isParent() || n.data("kind") === "box") {
        // Their title stands above the box (and the box's padding): keep counts off it.
        const bb = n.renderedBoundingBox({ includeLabels: false, includeOverlays: false });
        const title = String(n.data("title") || n.data("label") || "").split("\n")[0];
        const px = (LABEL_FONT + 1) * zoom;
        const half = (textUnits(title) * px * 0.62 + 8) / 2;
        const mid = (bb.x1 + bb.x2) / 2;
        occupy({ x1: mid - half, x2: mid + half, y1: bb.y1 - px * 1.6, y2: bb.y1 + 16 * zoom });
        return;
      }
      const p = n.renderedPosition();
      const hw = (n.data("w") * zoom) / 2 + 2, hh = (n.data("h") * zoom) / 2 + 2;
      if (p.x + hw < -40 || p.x - hw > w + 40 || p.y + hh < -40 || p.y - hh > h + 40) return;
      occupy({ x1: p.x - hw, x2: p.x + hw, y1: p.y - hh, y2: p.y + hh });
    });
    const px = LABEL_FONT * zoom;
    const edges = cy.edges().filter((e) => e.data("countLabel")).sort((a, b) => b.data("count") - a.data("count"));
    const crowded = [];
    const clear = [];
    edges.forEach((edge) => {
      const m = edge.renderedMidpoint();
      // The label's text, its background padding (2 px) and a margin for the borders around it.
      const half = (String(edge.data("countLabel")).length * px * 0.62 + 4) / 2 + 4;
      const box = { x1: m.x - half, x2: m.x + half, y1: m.y - px * 0.75 - 4, y2: m.y + px * 0.75 + 4 };
      if (box.x2 < 0 || box.x1 > w || box.y2 < 0 || box.y1 > h) { clear.push(edge); return; }
      if (collides(box)) { crowded.push(edge); return; }
      occupy(box);
      clear.push(edge);
    });
    cy.batch(() => {
      cy.collection(crowded).addClass("crowded");
      cy.collection(clear).removeClass("crowded");
    });
  }

  // Layout: static/js/topology_layout.js (positions from node data alone).
  const computePositions = (datas) => window.fabricwebLayout.computePositions(datas, {
    width: container.clientWidth, height: container.clientHeight, labelZoom: LABEL_ZOOM,
  });

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
    // The other networks have no levels: their name stands in the level's place.
    const networkName = networkSelectEl && data.network && data.network !== "backend"
      ? networkSelectEl.querySelector(`option[value="${data.network}"]`) : null;
    const levelName = networkName || levelSelect.querySelector(`option[value="${data.level}"]`);
    countsEl.textContent = interpolate(gettext("%(level)s · %(nodes)s nodes, %(edges)s edges"), {
      level: levelName ? levelName.textContent : "", nodes: fmt(cy.nodes().length), edges: fmt(cy.edges().length),
    }, true);
  }

  /* Fit the view from the positions and sizes we gave the nodes: cy.fit() would measure every
     label first, which costs more than drawing the largest first view. */
  function fitFor(boxes) {
    let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
    for (const b of boxes) {
      x1 = Math.min(x1, b.x - b.w / 2); x2 = Math.max(x2, b.x + b.w / 2);
      y1 = Math.min(y1, b.y - b.h / 2); y2 = Math.max(y2, b.y + b.h / 2);
    }
    const pad = 44;
    const width = cy.width(), height = cy.height();
    const fits = Math.min(cy.maxZoom(), 1.5,
      (width - 2 * pad) / Math.max(1, x2 - x1), (height - 2 * pad) / Math.max(1, y2 - y1));
    const zoom = Math.max(LABEL_ZOOM, fits);
    // What does not fit at a readable zoom is shown from its start (left, top): the rest is a pan away.
    const along = (lo, hi, size) => (zoom * (hi - lo) <= size - 2 * pad ? size / 2 - zoom * (lo + hi) / 2 : pad - zoom * lo);
    return { zoom: zoom, fits: fits >= LABEL_ZOOM, pan: { x: along(x1, x2, width), y: along(y1, y2, height) } };
  }

  function fitBoxes(boxes) {
    if (!boxes.length) return;
    cy.viewport(fitFor(boxes));
  }

  function boxesOf(collection) {
    return collection.filter((n) => !n.isParent()).map((n) => {
      const p = n.position();
      return { x: p.x, y: p.y, w: n.data("w"), h: n.data("h") };
    });
  }

  function fitAll() {
    fitBoxes(boxesOf(cy.nodes()));
  }

  /* The opened part in view, with the groups it links to when they fit at a readable zoom too (so its
     links end on screen); else the opened part alone, from its start. */
  function focusOn(opened) {
    opened = opened.filter((n) => n.inside());
    if (opened.empty()) return;
    const withNeighbours = opened.union(opened.neighborhood().nodes());
    const wide = fitFor(boxesOf(withNeighbours));
    cy.viewport(wide.fits ? wide : fitFor(boxesOf(opened)));
  }

  /* Elements ready to add, positioned, and the viewport that fits them. */
  function prepare(data) {
    const nodes = data.elements.nodes.map((n) => decorateNode(n.data));
    const edges = data.elements.edges.map((e) => decorateEdge(e.data));
    const positions = computePositions(nodes.map((n) => n.data));
    nodes.forEach((n) => {
      const p = positions.get(n.data.id);
      if (p) n.position = p;
      applyBoxSize(n.data, positions);
    });
    const placed = nodes.filter((n) => n.position).map((n) => ({ x: n.position.x, y: n.position.y, w: n.data.w, h: n.data.h }));
    return { data: data, nodes: nodes, edges: edges, viewport: placed.length ? fitFor(placed) : null };
  }

  function replaceAll(prepared, fit) {
    const { data, nodes, edges } = prepared;
    cy.batch(() => {
      cy.elements().remove();
      if (fit && prepared.viewport) cy.viewport(prepared.viewport);
      // Styled with labels only when they will be readable at this zoom.
      labelsOn = cy.zoom() >= LABEL_ZOOM;
      for (const element of nodes.concat(edges)) element.classes = labelsOn ? "labelled" : "";
      cy.add(nodes);
      cy.add(edges);
    });
    state.expanded = data.expanded || [];
    state.nextOffset = {};
    api.level = data.level;
    api.network = data.network || "backend";
    legend(data);
    showCounts(data);
    declutterCounts();
  }

  function path(level) {
    const params = new URLSearchParams({ level: level || (state.level === "auto" && state.autoLevel) || state.level });
    if (state.plane !== "all") params.set("plane", state.plane);
    if (state.network !== "backend") params.set("network", state.network);
    if (state.expanded.length) params.set("expanded", state.expanded.join(","));
    return params;
  }

  /* The first view at the automatic level, or a coarser one when its fit leaves labels unreadable. */
  async function readableView() {
    state.autoLevel = null;
    let data = await getJSON(config.topologyUrl + "?" + path().toString());
    let prepared = prepare(data);
    while (state.level === "auto" && !state.expanded.length && prepared.viewport
           && !prepared.viewport.fits && data.levels.indexOf(data.level) > 0) {
      data = await getJSON(config.topologyUrl + "?" + path(data.levels[data.levels.indexOf(data.level) - 1]).toString());
      prepared = prepare(data);
      state.autoLevel = data.level;
    }
    return prepared;
  }

  async function reload(options) {
    setStatus(gettext("Loading the topology…"));
    try {
      const asked = performance.now();
      const fit = Boolean(options && options.fit);
      const prepared = fit ? await readableView() : prepare(await getJSON(config.topologyUrl + "?" + path().toString()));
      const data = prepared.data;
      const received = performance.now();
      replaceAll(prepared, fit);
      api.timings = { requestMs: received - asked, buildMs: performance.now() - received, askedAtMs: asked };
      setStatus("");
      return data;
    } catch (error) {
      setStatus(interpolate(gettext("Could not load the topology: %s"), [error.message]));
      return null;
    }
  }

  /* The other networks open on the server: the view with the group in `expanded` (a few thousand links). */
  async function expandNetwork(id) {
    if (state.busy) return null;
    state.busy = true;
    try {
      state.expanded = state.expanded.concat([id]);
      const data = await reload();
      if (!data) return null;
      const opened = cy.nodes().filter((n) => n.data("group") === id);
      opened.forEach((n) => { state.openedFrom[n.id()] = id; });
      // A network's picture is small: all of it when it fits at a readable zoom, else the opened part.
      const whole = fitFor(boxesOf(cy.nodes()));
      if (whole.fits) cy.viewport(whole); else focusOn(opened);
      return data;
    } finally {
      state.busy = false;
    }
  }

  async function expand(id, offset) {
    if (id.startsWith("dev:")) return showPorts(id, offset);
    if (state.network !== "backend") return expandNetwork(id);
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
      // Children that replace their group can close it again from the side panel.
      if (data.replaced) nodes.forEach((n) => { state.openedFrom[n.data.id] = id; });
      if (data.next_offset) state.nextOffset[id] = data.next_offset; else delete state.nextOffset[id];
      showCounts(data);
      setStatus("");
      // Keep the user oriented: bring what was opened into view (the group, or its children).
      focusOn(cy.collection(nodes.map((n) => cy.getElementById(n.data.id))).union(cy.getElementById(id)));
      const target = cy.getElementById(id);
      if (target.nonempty()) showNode(target);
      declutterCounts();
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
    // And whatever was opened from inside it (ranges and groups that replaced their group).
    for (let grew = true; grew;) {
      grew = false;
      for (const e of state.expanded) {
        if (!gone.has(e) && (gone.has(state.openedFrom[e]) || e.startsWith(id + ":"))) { gone.add(e); grew = true; }
      }
    }
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
    return button(gettext("Show these cables"), () => window.fabricwebCabling.apply(filters), "details-cables");
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
    const from = state.openedFrom[d.id];
    if (!collapsible && from && state.expanded.includes(from)) {
      actions.append(button(gettext("Close the group"), () => collapse(from), "details-close-group"));
    }
    const cables = cablesButton(d.filters);
    if (cables) actions.append(cables);
    if (d.kind === "dev") {
      // Other apps' pages about this device (config.deviceLinks: the racks app's "Its rack").
      for (const link of config.deviceLinks || []) {
        const a = element("a", link.label, "button");
        a.href = link.url.replace("__device__", encodeURIComponent(d.label));
        a.id = "details-link-" + link.key;
        actions.append(a);
      }
    }
    parts.push(actions);
    detailsEl.replaceChildren(...parts);
  }

  function showEdge(edge) {
    showEdgeData(edge.data());
  }

  function showEdgeData(d, back) {
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
    if (back) actions.append(button(gettext("Back to the ports"), back, "details-back"));
    const cables = cablesButton(d.filters);
    if (cables) actions.append(cables);
    parts.push(actions);
    detailsEl.replaceChildren(...parts);
  }

  /* A switch's ports as a list in the side panel, grouped into downlinks and uplinks, each with
     the device and port at the other end (instead of a box per port in the picture). */
  const portLists = {};

  async function showPorts(id, offset) {
    const node = cy.getElementById(id);
    if (node.empty() || state.busy) return null;
    state.busy = true;
    setStatus(gettext("Opening…"));
    try {
      const params = path();
      params.set("node", id);
      if (offset) params.set("offset", String(offset));
      const data = await getJSON(config.expandUrl + "?" + params.toString());
      const device = node.data("label");
      const list = offset && portLists[id] ? portLists[id] : (portLists[id] = { rows: [], total: 0, next: null });
      const linkOf = new Map();
      for (const e of data.elements.edges) {
        linkOf.set(e.data.source, e.data);
        linkOf.set(e.data.target, e.data);
      }
      for (const n of data.elements.nodes) {
        if (n.data.kind !== "port") continue;
        const link = linkOf.get(n.data.id) || null;
        let peer = "";
        if (link) {
          const here = link.a_device === device && link.a_port === n.data.label;
          peer = here ? `${link.b_device}:${link.b_port}` : `${link.a_device}:${link.a_port}`;
        }
        list.rows.push({ port: n.data.label, toward: n.data.toward, speed: n.data.speed_gbps, peer: peer, link: link });
      }
      list.total = data.total;
      list.next = data.next_offset;
      if (list.next) state.nextOffset[id] = list.next; else delete state.nextOffset[id];
      renderPorts(node, list);
      setStatus("");
      return data;
    } catch (error) {
      setStatus(interpolate(gettext("Could not open it: %s"), [error.message]));
      return null;
    } finally {
      state.busy = false;
    }
  }

  function renderPorts(node, list) {
    showNode(node);
    const groups = [
      ["down", gettext("Downlinks"), list.rows.filter((r) => r.toward === "down")],
      ["up", gettext("Uplinks"), list.rows.filter((r) => r.toward !== "down")],
    ];
    const section = element("div", null, "port-list");
    section.id = "details-ports";
    section.append(element("p", interpolate(gettext("%(shown)s of %(total)s ports"),
      { shown: fmt(list.rows.length), total: fmt(list.total) }, true), "muted"));
    for (const [key, title, rows] of groups) {
      if (!rows.length) continue;
      section.append(element("h4", `${title} (${fmt(rows.length)})`));
      const table = element("table", null, "data compact");
      table.dataset.toward = key;
      const head = element("tr");
      head.append(element("th", gettext("Port")), element("th", gettext("Other end")), element("th", gettext("Medium")));
      table.append(head);
      for (const row of rows) {
        const tr = element("tr");
        const peer = element("td");
        if (row.link) {
          const link = element("a", row.peer);
          link.href = "#";
          link.addEventListener("click", (event) => {
            event.preventDefault();
            showEdgeData(row.link, () => renderPorts(node, list));
          });
          peer.append(link);
        }
        tr.append(element("td", row.port), peer,
          element("td", row.link ? `${row.link.medium_kind || ""} ${row.link.length_m} m` : ""));
        table.append(tr);
      }
      section.append(table);
    }
    detailsEl.append(section);
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

  /* Distance in screen pixels from a point to an edge's drawn segment. */
  function distanceToEdge(edge, p) {
    const a = edge.renderedSourceEndpoint(), b = edge.renderedTargetEndpoint();
    const dx = b.x - a.x, dy = b.y - a.y;
    const length2 = dx * dx + dy * dy;
    const t = length2 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2)) : 0;
    return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
  }

  /* What the pointer is on: an edge only where its line is drawn; elsewhere inside a pod box or an
     open group, that box (the innermost one). */
  function pointerTarget(target, event) {
    if (target === cy || !target.isEdge()) return target;
    const zoom = cy.zoom();
    if (distanceToEdge(target, event.renderedPosition) <= Math.max(3, (target.data("width") * zoom) / 2 + 2)) return target;
    const p = event.position;
    const around = cy.nodes().filter((n) => {
      if (!(n.data("kind") === "box" || n.isParent())) return false;
      const bb = n.boundingBox({ includeLabels: false, includeOverlays: false });
      return p.x >= bb.x1 && p.x <= bb.x2 && p.y >= bb.y1 && p.y <= bb.y2;
    });
    if (around.empty()) return target;
    return around.sort((a, b) => a.boundingBox().w * a.boundingBox().h - b.boundingBox().w * b.boundingBox().h)[0];
  }
  api.pointerTarget = (id, renderedPosition) => {
    const ele = cy.getElementById(id);
    const pan = cy.pan(), zoom = cy.zoom();
    const position = { x: (renderedPosition.x - pan.x) / zoom, y: (renderedPosition.y - pan.y) / zoom };
    return pointerTarget(ele, { renderedPosition: renderedPosition, position: position }).id();
  };

  cy.on("tap", (event) => {
    const target = pointerTarget(event.target, event);
    if (target === cy) { showNothing(); return; }
    if (target !== event.target) { cy.elements(":selected").unselect(); target.select(); }
    if (target.isEdge()) { showEdge(target); return; }
    showNode(target);
    const d = target.data();
    if (d.kind === "box" || (d.expandable && !target.isParent() && d.kind !== "port")) openNode(target);
  });

  // Legend ---------------------------------------------------------------------------------

  /* The legend of what is drawn: the backend's rails, planes or tiers and device roles; another
     network's tiers and its own groups of devices (no rails there). */
  function legend(data) {
    const items = [];
    const chip = (colour, text) => {
      const span = element("span");
      const c = element("span", null, "chip");
      c.style.background = colour;
      span.append(c, text);
      return span;
    };
    if (data && data.network && data.network !== "backend") {
      const tiers = [...new Set(data.elements.edges.map((e) => e.data.tier))].sort();
      if (tiers.length) {
        items.push(element("span", gettext("Tiers:"), "legend-title"));
        for (const tier of tiers) items.push(chip(TIER_COLOURS[tier] || "#64748b", TIER_NAMES[tier] || String(tier)));
      }
      items.push(element("span", gettext("Devices:"), "legend-title"));
      for (const group of (data.legend && data.legend.groups) || []) items.push(chip(ROLE_FILL[group.role] || "#f1f5f9", group.label));
      legendEl.replaceChildren(...items);
      return;
    }
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
  if (planeSelect) {
    planeSelect.value = state.plane;
    planeSelect.addEventListener("change", async () => {
      state.plane = planeSelect.value;
      state.expanded = [];
      await reload({ fit: true });
      showNothing();
    });
  }

  /* Every label drawn now: its text, its size on screen (px) and whether it is drawn at all. */
  function labelSizes() {
    const zoom = cy.zoom();
    const out = [];
    cy.elements().forEach((ele) => {
      const text = ele.pstyle("label").strValue;
      const wanted = ele.isNode() ? ele.data("label") : ele.data("countLabel");
      const px = ele.pstyle("font-size").pfValue * zoom;
      out.push({ id: ele.id(), text: text, wanted: wanted || "", px: px, drawn: Boolean(text) && px >= MIN_LABEL_PX,
        node: ele.isNode() });
    });
    return out;
  }

  // The network switcher: the cluster's other networks are drawn one node per group; the cabling table follows.
  const networkSelect = document.getElementById("topology-network");
  if (networkSelect) {
    // ?network=frontend opens the page on that network (a link to it, or a benchmark).
    const asked = new URLSearchParams(window.location.search).get("network");
    if (asked && networkSelect.querySelector(`option[value="${CSS.escape(asked)}"]`)) {
      networkSelect.value = asked;
      state.network = asked;
      levelSelect.disabled = asked !== "backend";
      if (planeSelect) planeSelect.disabled = asked !== "backend";
      window.fabricwebCabling.setNetwork(asked, false);
    }
    networkSelect.addEventListener("change", async () => {
      state.network = networkSelect.value;
      state.expanded = [];
      levelSelect.disabled = state.network !== "backend";
      if (planeSelect) planeSelect.disabled = state.network !== "backend";
      await reload({ fit: true });
      showNothing();
      window.fabricwebCabling.setNetwork(state.network, true);
    });
  }

  legend();
  reload({ fit: true }).then((data) => {
    if (!data) { window.fabricwebCabling.load(); window.fabricwebSchematic.load(); return; }
    cy.one("render", () => {
      api.firstDrawMs = performance.now();
      api.ready = true;
      container.dataset.ready = "true";
      // The schematic waits for the first picture and the cabling table for the schematic (the order of
      // the page), so they do not compete for the server.
      window.fabricwebSchematic.load().then(() => window.fabricwebCabling.load());
    });
  });
})();
