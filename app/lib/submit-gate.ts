/**
 * Forms pressed while the page's JavaScript loads (docs/decisions/0040-forms-before-hydration.md).
 *
 * Every page is complete as server-rendered HTML and its forms post without JavaScript, but
 * hydration starts a second owner of the same forms: React Router. A press is sent by exactly one
 * of the two, never both and never neither:
 * - before hydration starts, the browser submits it natively, and the page then does not hydrate
 *   (it is being replaced; hydrating meanwhile would let the router touch the history of a
 *   document with a navigation on its way);
 * - from the moment the boot script starts hydration until React has hydrated the page, the press
 *   is held (one per page: the last) and replayed with `requestSubmit(submitter)` once the page is
 *   ready, so the page's own handlers send it; if hydration fails before React Router's router
 *   exists (its scripts did not load), it is submitted natively.
 *
 * `installSubmitGate` runs in the browser as an inline script in <head>, before any form is parsed
 * (root.tsx), so it must not use anything outside its own body. The boot script asks `hydrate`
 * before it imports React Router's entry (app/server/http/hydrate-after-paint.server.ts);
 * root.tsx's layout calls `hydrated` once React has hydrated.
 */

export interface SubmitGate {
  /** "native" until the boot script starts hydration, "hydrating" until React is done, then "hydrated". */
  readonly state: "native" | "hydrating" | "hydrated";
  /** A native submission of this document was on its way when hydration was due: the page stayed as it was. */
  readonly stoodDown: boolean;
  /** May hydration start? False while a native submission replaces the page: the boot script stops. */
  hydrate(): boolean;
  /** React has hydrated the page: a held press is replayed. */
  hydrated(): void;
}

declare global {
  interface Window {
    submitGate?: SubmitGate;
  }
}

/** The browser side. Written for the browsers that run the module scripts it sits in. */
export function installSubmitGate(win: Window & typeof globalThis) {
  if (win.submitGate) return;
  const doc = win.document;
  type Press = { form: HTMLFormElement; submitter: HTMLElement | null };
  let state: SubmitGate["state"] = "native";
  let leaving = false;
  let stoodDown = false;
  let held: Press | null = null;

  // A submission that replaces this document (not one into another tab or a dialog's close).
  // oxlint-disable-next-line unicorn/consistent-function-scoping -- the script is this function's text alone
  const replacesDocument = (form: HTMLFormElement, submitter: HTMLElement | null) => {
    const attr = (name: string) =>
      submitter && submitter.hasAttribute(`form${name}`) ? submitter.getAttribute(`form${name}`) : form.getAttribute(name);
    return (attr("method") || "").toLowerCase() !== "dialog" && /^(_self|_top|_parent)?$/i.test(attr("target") || "");
  };
  const pressOf = (event: Event): Press | null => {
    const form = event.target;
    if (!(form instanceof win.HTMLFormElement)) return null;
    const submitter = (event as SubmitEvent).submitter ?? null;
    return replacesDocument(form, submitter) ? { form, submitter } : null;
  };
  // A macrotask (not a timer: a paused test clock or a background tab would hold it back).
  const nextTask = (fn: () => void) => {
    const channel = new win.MessageChannel();
    channel.port1.addEventListener("message", () => fn(), { once: true });
    channel.port1.start();
    channel.port2.postMessage(0);
  };
  const send = ({ form, submitter }: Press) => {
    form.removeAttribute("data-submit-held");
    // Hydration replaced the form (a render that did not match): send the one that was pressed,
    // with what was typed into it, natively.
    if (!form.isConnected) {
      form.hidden = true;
      doc.body.append(form);
    }
    const button = submitter && (submitter as HTMLButtonElement).form === form ? submitter : null;
    if (typeof form.requestSubmit === "function") {
      form.requestSubmit(button);
      return;
    }
    const name = button && button.getAttribute("name");
    if (name)
      form.append(
        Object.assign(doc.createElement("input"), { type: "hidden", name, value: (button as HTMLButtonElement).value }),
      );
    form.submit();
  };
  const flush = () => {
    const press = held;
    held = null;
    if (press) nextTask(() => send(press));
  };

  // Window, capture: before React's listeners on the document, which must not see a held press.
  win.addEventListener(
    "submit",
    (event) => {
      if (state !== "hydrating") return;
      const press = pressOf(event);
      if (!press) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      if (held && held.form !== press.form) held.form.removeAttribute("data-submit-held");
      held = press;
      press.form.setAttribute("data-submit-held", "");
    },
    true,
  );
  // Window, bubbling: after every handler, so a press some handler took over is not counted.
  win.addEventListener("submit", (event) => {
    if (state === "native" && !event.defaultPrevented && pressOf(event)) leaving = true;
  });
  // React Router's scripts did not load, or failed before its router existed: the page stays
  // server-rendered HTML, and a held press goes as it would have without JavaScript.
  const failed = () => {
    if (state !== "hydrating" || "__reactRouterDataRouter" in win) return;
    state = "native";
    flush();
  };
  win.addEventListener("error", failed);
  win.addEventListener("unhandledrejection", failed);

  const gate: SubmitGate = {
    get state() {
      return state;
    },
    get stoodDown() {
      return stoodDown;
    },
    hydrate() {
      if (leaving) {
        stoodDown = true;
        return false;
      }
      if (state === "native") state = "hydrating";
      return true;
    },
    hydrated() {
      if (state === "hydrated") return;
      state = "hydrated";
      flush();
    },
  };
  win.submitGate = gate;
}

/**
 * The inline script that installs the gate (root.tsx puts it in <head>), without the source's
 * comments and indentation: it is part of every page.
 */
export const SUBMIT_GATE_SCRIPT = `(${installSubmitGate
  .toString()
  .replace(/^\s*\/\/.*\n/gm, "")
  .replace(/^\s+/gm, "")})(window);`;

/** Called once React has hydrated the document. */
export function submitGateHydrated() {
  window.submitGate?.hydrated();
}
