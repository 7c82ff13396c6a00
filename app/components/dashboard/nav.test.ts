import { describe, expect, it } from "vitest";
import {
  displayFirstName,
  emailInitials,
  emailName,
  isNavItemActive,
  MAIN_MENU,
  readSidebarOpen,
  sidebarCookie,
  SUPPORT_MENU,
  toastMessage,
} from "./nav";

describe("dashboard navigation", () => {
  it("lists the spec's menu items in order", () => {
    expect(MAIN_MENU.map((i) => i.to)).toEqual([
      "/dashboard",
      "/dashboard/billing",
      "/dashboard/addons",
      "/dashboard/scaling",
      "/dashboard/onboarding",
      "/dashboard/profile",
    ]);
    expect(SUPPORT_MENU.map((i) => i.label)).toEqual(["Analytics", "Settings", "Support"]);
  });

  it("marks an item active on its path or below it; the overview only on an exact match", () => {
    expect(isNavItemActive("/dashboard", "/dashboard")).toBe(true);
    expect(isNavItemActive("/dashboard/", "/dashboard")).toBe(true);
    expect(isNavItemActive("/dashboard/billing", "/dashboard")).toBe(false);
    expect(isNavItemActive("/dashboard/billing", "/dashboard/billing")).toBe(true);
    expect(isNavItemActive("/dashboard/billing/invoices", "/dashboard/billing")).toBe(true);
    expect(isNavItemActive("/dashboard/billingx", "/dashboard/billing")).toBe(false);
  });

  it("reads the sidebar cookie (open by default)", () => {
    expect(readSidebarOpen(null)).toBe(true);
    expect(readSidebarOpen("a=1; sidebar_state=false")).toBe(false);
    // Without the cookie, the account's saved default applies; the cookie always wins.
    expect(readSidebarOpen(null, false)).toBe(false);
    expect(readSidebarOpen("a=1", false)).toBe(false);
    expect(readSidebarOpen("sidebar_state=true", false)).toBe(true);
    expect(readSidebarOpen("sidebar_state=true")).toBe(true);
    expect(readSidebarOpen("other_sidebar_state=false")).toBe(true);
    expect(sidebarCookie(false)).toBe("sidebar_state=false; path=/; max-age=604800; SameSite=Lax");
  });

  it("derives the avatar, names and toasts", () => {
    expect(emailInitials("ada@example.com")).toBe("AD");
    expect(emailName("ada.l@example.com")).toBe("ada.l");
    expect(displayFirstName("Ada", "x@y.z")).toBe("Ada");
    expect(displayFirstName(null, "grace@y.z")).toBe("grace");
    expect(displayFirstName("  ", "grace@y.z")).toBe("grace");
    expect(toastMessage("trial-started")).toBe("Trial Started!");
    expect(toastMessage("welcome-back")).toBe("Welcome back!");
    expect(toastMessage("account-created")).toBe("Account Created!");
    expect(toastMessage("toString")).toBeNull();
    expect(toastMessage(null)).toBeNull();
  });
});
