// Touch on the table (issue 36): a tile of the own hand dragged up past a threshold is discarded, as one
// flicks a tile into the middle on a phone game. A tap stays a tap (table.js: raise, tap again to discard, or
// one tap with the "one-tap discard" setting); a drag that does not go far enough springs back.

import { holdRender, releaseRender } from "./state.js";

/** How far up (px) a tile must be dragged to be discarded. */
export const DRAG_DISCARD_PX = 40;

/**
 * Let `img` be dragged up to `discard()`. Mouse, pen and finger alike (pointer events); the click that a
 * finished drag would also fire is swallowed (table.js checks `dataset.dragged`).
 */
export function dragUp(img, discard) {
  let start = null;
  img.style.touchAction = "none"; // the finger drags the tile, not the page
  img.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    start = { x: e.clientX, y: e.clientY, id: e.pointerId };
    holdRender(); // the tile stays under the finger until the press ends (a render would replace it)
    try {
      img.setPointerCapture(e.pointerId);
    } catch {
      // (a synthetic pointer cannot be captured)
    }
  });
  img.addEventListener("pointermove", (e) => {
    if (!start || e.pointerId !== start.id) return;
    const dy = Math.min(0, e.clientY - start.y);
    if (dy < -6) {
      img.classList.add("dragging");
      img.style.transform = `translateY(${Math.max(dy, -3 * DRAG_DISCARD_PX)}px)`;
    }
  });
  const end = (e) => {
    if (!start || e.pointerId !== start.id) return;
    const dy = e.clientY - start.y;
    start = null;
    img.classList.remove("dragging");
    img.style.transform = "";
    if (e.type === "pointerup" && dy <= -DRAG_DISCARD_PX) {
      img.dataset.dragged = "1";
      releaseRender();
      discard();
    }
  };
  img.addEventListener("pointerup", end);
  img.addEventListener("pointercancel", end);
}

// the end of any press lets the held renders out: after a tap's click (its tile's handler first: the click
// bubbles here), or soon after the pointer is lifted when no click follows; at once when the press is cancelled
document.addEventListener("click", () => releaseRender());
document.addEventListener("pointerup", () => releaseRender(300));
document.addEventListener("pointercancel", () => releaseRender());
