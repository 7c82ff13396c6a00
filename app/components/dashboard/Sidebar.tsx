import {
  Bot,
  ChartColumn,
  CreditCard,
  LayoutDashboard,
  LifeBuoy,
  ListChecks,
  LogOut,
  Puzzle,
  Settings,
  TrendingUp,
  User,
  X,
} from "lucide-react";
import { Dialog as DialogPrimitive, Tooltip } from "radix-ui";
import type * as React from "react";
import { Form, Link, useLocation } from "react-router";
import { cn } from "~/lib/utils";
import { emailInitials, emailName, isNavItemActive, MAIN_MENU, SUPPORT_MENU, type NavItem } from "./nav";

const ICONS: Record<NavItem["icon"], React.ComponentType<{ className?: string; "aria-hidden"?: boolean }>> = {
  overview: LayoutDashboard,
  billing: CreditCard,
  addons: Puzzle,
  scaling: TrendingUp,
  onboarding: ListChecks,
  profile: User,
  analytics: ChartColumn,
  settings: Settings,
  support: LifeBuoy,
};

interface SidebarBodyProps {
  email: string;
  /** Icons only (desktop collapsed mode). */
  collapsed: boolean;
  /** Called after a link is followed (closes the mobile sheet). */
  onNavigate?: () => void;
}

function NavLinkItem({ item, collapsed, onNavigate }: { item: NavItem; collapsed: boolean; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const active = isNavItemActive(pathname, item.to);
  const Icon = ICONS[item.icon];
  const link = (
    <Link
      to={item.to}
      prefetch="intent"
      onClick={onNavigate}
      aria-current={active ? "page" : undefined}
      aria-label={collapsed ? item.label : undefined}
      data-active={active ? "true" : undefined}
      className={cn(
        "flex h-9 items-center gap-3 rounded-md px-2.5 text-sm font-medium text-slate-200 transition-colors hover:bg-white/10 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white",
        active && "bg-white/15 text-white",
        collapsed && "justify-center px-0",
      )}
    >
      <Icon className="size-4 shrink-0" aria-hidden />
      {!collapsed && <span className="truncate">{item.label}</span>}
    </Link>
  );
  return (
    <li>
      {collapsed ? (
        <Tooltip.Root>
          <Tooltip.Trigger asChild>{link}</Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content
              side="right"
              sideOffset={8}
              className="z-50 rounded-md bg-ink px-2.5 py-1.5 text-xs font-medium text-white shadow-md"
            >
              {item.label}
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
      ) : (
        link
      )}
    </li>
  );
}

function NavGroup({
  id,
  title,
  items,
  collapsed,
  onNavigate,
}: { id: string; title: string; items: readonly NavItem[] } & SidebarBodyProps) {
  return (
    <nav aria-labelledby={id} className="flex flex-col gap-1">
      <h2 id={id} className={cn("px-2.5 text-xs font-semibold uppercase tracking-wider text-slate-300", collapsed && "sr-only")}>
        {title}
      </h2>
      <ul className="flex flex-col gap-1">
        {items.map((item) => (
          <NavLinkItem key={item.to} item={item} collapsed={collapsed} onNavigate={onNavigate} />
        ))}
      </ul>
    </nav>
  );
}

/** Brand, both menus and the account footer; shared by the desktop sidebar and the mobile sheet. */
function SidebarBody({ email, collapsed, onNavigate, idPrefix }: SidebarBodyProps & { idPrefix: string }) {
  return (
    <Tooltip.Provider delayDuration={200}>
      <div className="flex h-full flex-col gap-6 overflow-y-auto overflow-x-hidden p-2">
        <Link
          to="/"
          className={cn(
            "flex h-10 items-center gap-2 rounded-md px-2.5 font-bold text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white",
            collapsed && "justify-center px-0",
          )}
          aria-label={collapsed ? "AI Automation Apps home" : undefined}
        >
          <Bot className="size-5 shrink-0" aria-hidden />
          {!collapsed && <span className="truncate">AI Automation Apps</span>}
        </Link>
        <NavGroup
          id={`${idPrefix}-main`}
          title="Main Menu"
          items={MAIN_MENU}
          collapsed={collapsed}
          onNavigate={onNavigate}
          email={email}
        />
        <NavGroup
          id={`${idPrefix}-support`}
          title="Support"
          items={SUPPORT_MENU}
          collapsed={collapsed}
          onNavigate={onNavigate}
          email={email}
        />
        <div className="mt-auto border-t border-white/15 pt-3">
          <div className={cn("flex items-center gap-3 px-1", collapsed && "justify-center px-0")}>
            <span
              aria-hidden
              className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-bold text-white"
            >
              {emailInitials(email)}
            </span>
            {!collapsed && (
              <div className="min-w-0 text-sm">
                <p className="truncate font-semibold text-white">{emailName(email)}</p>
                <p className="truncate text-xs text-slate-300">{email}</p>
              </div>
            )}
          </div>
          <Form method="post" action="/dashboard" className="mt-3">
            <input type="hidden" name="intent" value="sign-out" />
            <button
              type="submit"
              aria-label={collapsed ? "Sign Out" : undefined}
              className={cn(
                "flex h-9 w-full items-center gap-3 rounded-md px-2.5 text-sm font-medium text-slate-200 hover:bg-white/10 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white",
                collapsed && "justify-center px-0",
              )}
            >
              <LogOut className="size-4 shrink-0" aria-hidden />
              {!collapsed && <span>Sign Out</span>}
            </button>
          </Form>
        </div>
      </div>
    </Tooltip.Provider>
  );
}

/** Desktop sidebar (768 px and up): 16rem open, 3rem icons only. */
export function DesktopSidebar({ email, open }: { email: string; open: boolean }) {
  return (
    <aside
      id="dashboard-sidebar"
      aria-label="Sidebar"
      data-state={open ? "expanded" : "collapsed"}
      className={cn(
        "sticky top-0 hidden h-screen shrink-0 bg-ink transition-[width] duration-200 md:block",
        open ? "w-64" : "w-12",
      )}
    >
      <SidebarBody email={email} collapsed={!open} idPrefix="sidebar" />
    </aside>
  );
}

/**
 * Radix focuses the first element of an opened dialog that is not a link, which in this menu of
 * links is Sign Out: one more Enter signed the customer out. The menu opens on the current page's
 * link instead (or the first one).
 */
function focusCurrentPage(event: Event) {
  const sheet = event.target instanceof HTMLElement ? event.target : null;
  const link = sheet?.querySelector<HTMLElement>('nav a[aria-current="page"]') ?? sheet?.querySelector<HTMLElement>("nav a");
  if (!link) return;
  event.preventDefault();
  link.focus();
}

/** Below 768 px: an off-canvas sheet (Radix Dialog, focus trapped) 18rem wide. */
export function MobileSidebar({
  email,
  open,
  onOpenChange,
}: {
  email: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/60 md:hidden" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] bg-ink shadow-xl md:hidden"
          onOpenAutoFocus={focusCurrentPage}
        >
          <DialogPrimitive.Title className="sr-only">Dashboard menu</DialogPrimitive.Title>
          <SidebarBody email={email} collapsed={false} idPrefix="sheet" onNavigate={() => onOpenChange(false)} />
          <DialogPrimitive.Close className="absolute right-3 top-3 rounded-sm p-1 text-slate-200 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white">
            <X className="size-4" aria-hidden />
            <span className="sr-only">Close menu</span>
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
