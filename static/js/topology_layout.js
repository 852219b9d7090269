/* Positions of the topology's nodes, computed from node data alone, cheaply and deterministically.
 *
 * Tiers are horizontal layers (cores on top, servers at the bottom) and every node stands in the
 * column of its plane, pod and scale unit (data.col), so a pod's spines sit above its leaves and
 * servers; no force layout runs. Only the layers present are placed, each below the rows the one
 * above wraps into. A long layer wraps into rows no wider than the canvas at a readable zoom;
 * planes, and pods (or scale units) in a plane, that are wider side by side than the canvas at a
 * readable zoom wrap into bands below one another, each band as tall as the bands nested in it, so
 * the view can always be read by panning downwards. Pod boxes (kind "box") get a size covering
 * everything in them.
 *
 * window.fabricwebLayout.computePositions(datas, {width, height, labelZoom}) -> Map id -> {x, y},
 * with .boxes: Map box id -> {w, h}.
 */
(function () {
  "use strict";
  const LAYER_GAP = 120;  // between the lowest row of a layer and the highest row of the next
  const BAND_GAP = 110;  // between bands of pods (or scale units)
  const GAP = 22;
  const COLUMN_GAP = 56;
  const ROW_MAX = 16;  // at most this many nodes in one row of a layer of a column
  const ROW_STEP = 60;
  const PORT_W = 58;
  const PORT_H = 20;
  const PORTS_PER_ROW = 16;
  const BOX_PAD = 18;

  function newColumn(key) { return { key: key, children: new Map(), items: { 0: [], 1: [], 2: [], 3: [] }, width: 0 }; }



  /* Positions (id -> {x, y}) for every node that is not a compound, from node data alone; pod
     boxes also get a size (boxes: id -> {w, h}) that covers everything in them. */
  function computePositions(datas, canvas) {
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
    /* A long layer wraps into rows about twice as wide as they are many, and no wider than the canvas
       at a readable zoom, so an opened group fits at a zoom where its labels can be read (32 servers:
       4 rows of 8; 8 leaves with long names: 2 rows of 4). */
    const readableWidth = Math.max(400, ((canvas.width || 1000) - 88) / canvas.labelZoom);
    const perRow = (items) => {
      const n = items.length;
      const base = n <= 12 ? n : Math.min(ROW_MAX, Math.max(8, Math.ceil(Math.sqrt(2 * n))));
      const average = items.reduce((sum, item) => sum + item.width, 0) / Math.max(1, n) + GAP;
      const fitting = Math.max(4, Math.floor(readableWidth / average));
      if (base <= fitting) return base;
      return Math.ceil(n / Math.ceil(n / fitting));
    };
    const chunks = (items) => {
      const out = [];
      const step = Math.max(1, perRow(items));
      for (let i = 0; i < items.length; i += step) out.push(items.slice(i, i + step));
      return out;
    };
    // Only the layers present, each below the rows the previous one wraps into.
    const rows = { 0: 0, 1: 0, 2: 0, 3: 0 };
    (function countRows(column) {
      for (const layer of [0, 1, 2, 3]) rows[layer] = Math.max(rows[layer], chunks(column.items[layer]).length);
      column.children.forEach(countRows);
    })(root);
    for (const layer of [0, 1, 2, 3]) rows[layer] = Math.max(rows[layer], chunks(loose[layer]).length);
    const LAYER_Y = {};
    let top = 0;
    for (const layer of [3, 2, 1, 0]) {
      const n = Math.max(1, rows[layer]);
      if (!rows[layer]) { LAYER_Y[layer] = top; continue; }
      if (layer >= 2) { LAYER_Y[layer] = top + (n - 1) * ROW_STEP; top = LAYER_Y[layer] + LAYER_GAP; }
      else { LAYER_Y[layer] = top; top += (n - 1) * ROW_STEP + LAYER_GAP; }
    }
    const BAND_H = top - LAYER_GAP + BAND_GAP;  // one band of every layer
    const lineWidth = (items) => items.reduce((sum, item) => sum + item.width, 0) + GAP * Math.max(0, items.length - 1);
    const rowWidth = (items) => Math.max(0, ...chunks(items).map(lineWidth));
    const spanWidth = (kids) => kids.reduce((sum, kid) => sum + kid.width, 0) + COLUMN_GAP * Math.max(0, kids.length - 1);
    /* Columns wider side by side than the canvas at a readable zoom wrap into bands, as many in each
       as fit (at least one). */
    function bands(kids) {
      if (kids.length <= 1 || spanWidth(kids) <= readableWidth) return [kids];
      let count = 0;
      let band = [];
      for (const kid of kids) {
        if (band.length && spanWidth(band.concat([kid])) > readableWidth) { count++; band = []; }
        band.push(kid);
      }
      if (band.length) count++;
      // As many bands as needed, evenly filled (8 planes: two bands of 4, not 6 and 2).
      const perBand = Math.ceil(kids.length / count);
      const out = [];
      for (let i = 0; i < kids.length; i += perBand) out.push(kids.slice(i, i + perBand));
      return out;
    }
    const bandRows = (band) => Math.max(1, ...band.map((kid) => kid.rows));
    function measure(column, depth) {
      const kids = [...column.children.values()].sort((a, b) => a.key - b.key);
      kids.forEach((kid) => measure(kid, depth + 1));
      column.bands = depth <= 1 ? bands(kids) : [kids];
      // How many bands of every layer the column takes downwards (its own bands and those nested in them).
      column.rows = column.bands.reduce((sum, band) => sum + bandRows(band), 0) || 1;
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
      let below = 0;
      column.bands.forEach((band) => {
        let x = x0 + (column.width - spanWidth(band)) / 2;
        for (const kid of band) { place(kid, x, offset + below * BAND_H); x += kid.width + COLUMN_GAP; }
        below += bandRows(band);
      });
      lowest = Math.max(lowest, offset + Math.max(0, below - 1) * BAND_H);
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

  window.fabricwebLayout = { computePositions: computePositions };
})();
