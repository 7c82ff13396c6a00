import type { ToasterProps } from "sonner";

/**
 * Every toaster of the site, marketing pages and dashboard alike: one style, solid with white text
 * (the theme's green for success, its red for an error, its ink for a plain notice; AA contrast) and one place, the bottom right corner
 * (the foot of the screen on a phone), where it covers no heading, ticker or menu button.
 */
export const TOASTER_PROPS = {
  position: "bottom-right",
  offset: { bottom: 16, right: 16 },
  mobileOffset: { bottom: 16 },
  toastOptions: {
    classNames: {
      default: "border-ink! bg-ink! text-white! [&_[data-description]]:text-white!",
      error: "border-destructive! bg-destructive! text-white! [&_[data-description]]:text-white!",
      success: "border-emerald-700! bg-emerald-700! text-white! [&_[data-description]]:text-white!",
    },
  },
} satisfies ToasterProps;
