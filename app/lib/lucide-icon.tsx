import { Icon as LucideIcon, useLucideContext } from "lucide-react";
import { createElement, forwardRef, type ReactElement, type Ref } from "react";

/**
 * lucide-react's Icon, with its markup built once per icon and set of props instead of on every
 * render. Lucide builds an icon's element tree on each render (its attributes merged, one element per
 * path), and React then renders and escapes every path's long `d` attribute: on a signed-in page,
 * rendered per request, the icons were most of the markup and a large share of the render. The vite
 * config points lucide's own `createLucideIcon` at this component (docs/decisions/0063-cheap-signed-in-pages.md);
 * the markup is lucide's own, character for character (lucide-icon.test.tsx renders every icon both ways).
 *
 * Only the common case is kept: no children, no LucideProvider values, every prop a string, number
 * or boolean. Anything else renders through lucide unchanged.
 */

type IconProps = Record<string, unknown> & { icon?: object };

interface Built {
  svgProps: Record<string, unknown>;
  inner: { __html: string };
}

/** Icon data object -> props key -> markup. Icon data are lucide's module constants. */
const built = new WeakMap<object, Map<string, Built | null>>();
/** Entries per icon at most: props come from call sites, so this is only a guard against a leak. */
const MAX_VARIANTS = 64;

const ATTRIBUTE_NAME = /^[a-z][a-z0-9-]*$/;
const escapeAttribute = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c]!);

function propsKey(props: IconProps): string | null {
  let key = "";
  for (const name in props) {
    if (name === "icon") continue;
    const value = props[name];
    if (value === undefined) continue;
    const type = typeof value;
    if (type !== "string" && type !== "number" && type !== "boolean") return null;
    key += `${name}\u0000${type}\u0000${String(value)}\u0001`;
  }
  return key;
}

/** The path elements lucide rendered, as the markup React would write for them; null if unusual. */
function innerMarkup(children: unknown): string | null {
  let html = "";
  for (const child of Array.isArray(children) ? children : [children]) {
    if (child === undefined || child === null || child === false) continue;
    const element = child as ReactElement<Record<string, unknown>>;
    if (typeof element !== "object" || typeof element.type !== "string" || !ATTRIBUTE_NAME.test(element.type)) return null;
    html += `<${element.type}`;
    for (const [name, value] of Object.entries(element.props)) {
      if (value === undefined || value === null) continue;
      if (!ATTRIBUTE_NAME.test(name) || (typeof value !== "string" && typeof value !== "number")) return null;
      html += ` ${name}="${escapeAttribute(String(value))}"`;
    }
    html += `></${element.type}>`;
  }
  return html;
}

function build(element: ReactElement<Record<string, unknown>>): Built | null {
  if (element.type !== "svg") return null;
  const { children, ...svgProps } = element.props;
  const html = innerMarkup(children);
  return html === null ? null : { svgProps, inner: { __html: html } };
}

const hasContextValues = (context: Record<string, unknown> | null | undefined) =>
  !!context && Object.values(context).some((v) => v !== undefined);

type RenderFunction = (props: IconProps, ref: Ref<SVGSVGElement> | null) => ReactElement<Record<string, unknown>>;
/**
 * Lucide's Icon render function, looked up when called: this module and lucide import each other
 * (lucide's createLucideIcon imports this one), so lucide's Icon is not defined yet while this
 * module is evaluated.
 */
const render = {
  render: (props: IconProps, ref: Ref<SVGSVGElement> | null) =>
    (LucideIcon as unknown as { render: RenderFunction }).render(props, ref),
};

const CachedIcon = forwardRef<SVGSVGElement, IconProps>(function CachedIcon(props, ref) {
  const context = useLucideContext() as Record<string, unknown> | null;
  const icon = props.icon;
  const key = icon && !hasContextValues(context) && props.children === undefined ? propsKey(props) : null;
  // The ref is handed on to the element lucide (or this function) renders, never read here.
  // oxlint-disable-next-line react/refs
  if (key === null || !icon) return render.render(props, ref);
  let variants = built.get(icon);
  if (!variants) built.set(icon, (variants = new Map()));
  let entry = variants.get(key);
  if (entry === undefined) {
    const element = render.render(props, null);
    entry = build(element);
    if (variants.size < MAX_VARIANTS) variants.set(key, entry);
  }
  // oxlint-disable-next-line react/refs
  if (!entry) return render.render(props, ref);
  // oxlint-disable-next-line react/refs
  return createElement("svg", { ...entry.svgProps, ref, dangerouslySetInnerHTML: entry.inner });
});

export default CachedIcon;
