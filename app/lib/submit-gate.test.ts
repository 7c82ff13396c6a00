import { describe, expect, it } from "vitest";
import { installSubmitGate, SUBMIT_GATE_SCRIPT, type SubmitGate } from "./submit-gate";

/** Just enough of a form for the gate: attributes, connection, requestSubmit. */
class FakeForm {
  attributes = new Map<string, string>();
  isConnected = true;
  hidden = false;
  sent: (FakeButton | null)[] = [];
  constructor(attrs: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(attrs)) this.attributes.set(k, v);
  }
  getAttribute(name: string) {
    return this.attributes.get(name) ?? null;
  }
  setAttribute(name: string, value: string) {
    this.attributes.set(name, value);
  }
  removeAttribute(name: string) {
    this.attributes.delete(name);
  }
  hasAttribute(name: string) {
    return this.attributes.has(name);
  }
  requestSubmit(submitter?: FakeButton | null) {
    this.sent.push(submitter ?? null);
  }
}

class FakeButton extends FakeForm {
  constructor(
    readonly form: FakeForm,
    attrs: Record<string, string> = {},
  ) {
    super(attrs);
  }
}

type Listener = (event: unknown) => void;

/** A window whose listeners the test calls in the browser's order: window capture, then bubbling. */
function fakeWindow() {
  const listeners: { type: string; capture: boolean; fn: Listener }[] = [];
  const appended: unknown[] = [];
  const win = {
    HTMLFormElement: FakeForm,
    MessageChannel,
    document: { body: { append: (node: unknown) => appended.push(node) }, createElement: () => ({}) },
    addEventListener(type: string, fn: Listener, capture?: boolean) {
      listeners.push({ type, capture: Boolean(capture), fn });
    },
  } as unknown as Window & typeof globalThis & { submitGate?: SubmitGate };

  /** A press of `submitter` in `form`, as the browser dispatches its submit event; true if it goes natively. */
  function press(form: FakeForm, submitter: FakeButton | null = null, otherHandlerPrevents = false) {
    let prevented = false;
    let stopped = false;
    const event = {
      type: "submit",
      target: form,
      submitter,
      get defaultPrevented() {
        return prevented;
      },
      preventDefault: () => (prevented = true),
      stopImmediatePropagation: () => (stopped = true),
    };
    for (const l of listeners.filter((x) => x.type === "submit" && x.capture)) if (!stopped) l.fn(event);
    if (!stopped && otherHandlerPrevents) event.preventDefault();
    for (const l of listeners.filter((x) => x.type === "submit" && !x.capture)) if (!stopped) l.fn(event);
    return { native: !prevented, reachedPage: !stopped };
  }
  const fire = (type: string) => listeners.filter((x) => x.type === type).forEach((l) => l.fn({ type }));
  return { win, press, fire, appended };
}

/** One macrotask later (the gate replays in a task of its own). */
const nextTask = () => new Promise<void>((resolve) => setImmediate(resolve));

function setup() {
  const fake = fakeWindow();
  installSubmitGate(fake.win);
  return { ...fake, gate: fake.win.submitGate! };
}

describe("submit gate", () => {
  it("before hydration a press goes natively, and the page then does not hydrate", () => {
    const { gate, press } = setup();
    const form = new FakeForm({ method: "post" });
    expect(press(form)).toEqual({ native: true, reachedPage: true });
    expect(gate.hydrate()).toBe(false);
    expect(gate.stoodDown).toBe(true);
    expect(gate.state).toBe("native");
  });

  it("a press that opens another tab, or that a handler took over, does not stop hydration", () => {
    const { gate, press } = setup();
    expect(press(new FakeForm({ method: "post", target: "_blank" })).native).toBe(true);
    const form = new FakeForm({ method: "post" });
    expect(press(form, new FakeButton(form, { formtarget: "checkout" })).native).toBe(true);
    expect(press(new FakeForm({ method: "post" }), null, true).native).toBe(false);
    expect(gate.hydrate()).toBe(true);
    expect(gate.state).toBe("hydrating");
  });

  it("during hydration a press is held from the page and replayed once, with its submitter, after hydration", async () => {
    const { gate, press } = setup();
    expect(gate.hydrate()).toBe(true);
    const form = new FakeForm({ method: "post" });
    const button = new FakeButton(form, { name: "rush", value: "true" });
    expect(press(form, button)).toEqual({ native: false, reachedPage: false });
    expect(form.hasAttribute("data-submit-held")).toBe(true);
    await nextTask();
    expect(form.sent).toEqual([]);

    gate.hydrated();
    expect(gate.state).toBe("hydrated");
    expect(form.sent).toEqual([]);
    await nextTask();
    expect(form.sent).toEqual([button]);
    expect(form.hasAttribute("data-submit-held")).toBe(false);
    // The replay itself, and every later press, is the page's.
    expect(press(form, button)).toEqual({ native: true, reachedPage: true });
    gate.hydrated();
    await nextTask();
    expect(form.sent).toEqual([button]);
  });

  it("two presses during hydration send one submission: the last", async () => {
    const { gate, press } = setup();
    gate.hydrate();
    const first = new FakeForm({ method: "post" });
    const second = new FakeForm({ method: "get" });
    press(first);
    press(first);
    press(second);
    expect(first.hasAttribute("data-submit-held")).toBe(false);
    gate.hydrated();
    await nextTask();
    expect(first.sent).toEqual([]);
    expect(second.sent).toEqual([null]);
  });

  it("a held form that hydration replaced is put back, hidden, and sent natively", async () => {
    const { gate, press, appended } = setup();
    gate.hydrate();
    const form = new FakeForm({ method: "post" });
    press(form);
    form.isConnected = false;
    gate.hydrated();
    await nextTask();
    expect(appended).toEqual([form]);
    expect(form.hidden).toBe(true);
    expect(form.sent).toEqual([null]);
  });

  it("when React Router's scripts fail to load, a held press goes natively and later presses too", async () => {
    const { gate, press, fire } = setup();
    gate.hydrate();
    const form = new FakeForm({ method: "post" });
    press(form);
    fire("unhandledrejection");
    expect(gate.state).toBe("native");
    await nextTask();
    expect(form.sent).toEqual([null]);
    expect(press(form).native).toBe(true);
  });

  it("an error once the router exists does not release a held press: the router will send it", async () => {
    const { gate, press, fire, win } = setup();
    gate.hydrate();
    Object.assign(win, { ["__reactRouterDataRouter"]: {} });
    const form = new FakeForm({ method: "post" });
    press(form);
    fire("error");
    expect(gate.state).toBe("hydrating");
    await nextTask();
    expect(form.sent).toEqual([]);
  });

  it("the inline script installs the same gate and needs nothing outside its own text", () => {
    const { win } = fakeWindow();
    new Function("window", SUBMIT_GATE_SCRIPT)(win);
    expect(win.submitGate?.state).toBe("native");
    expect(win.submitGate?.hydrate()).toBe(true);
  });
});
