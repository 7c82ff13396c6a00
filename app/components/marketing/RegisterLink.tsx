import { WEBINAR_FRAME_ID } from "./WebinarEmbed";

export const REGISTER_SECTION_ID = "register";

/**
 * 'Register for Free' (spec: no action shown). It takes the visitor to the webinar registration
 * embed: the in-page link scrolls there without JavaScript, and with JavaScript focus moves into
 * the form itself (or onto the section when no form is shown).
 */
export function RegisterLink({ className, label = "Register for Free" }: { className?: string; label?: string }) {
  return (
    <a
      href={`#${REGISTER_SECTION_ID}`}
      className={className}
      onClick={() => {
        const target = document.getElementById(WEBINAR_FRAME_ID) ?? document.getElementById(REGISTER_SECTION_ID);
        // Let the browser's own hash scroll run; only move focus.
        window.setTimeout(() => target?.focus({ preventScroll: true }), 0);
      }}
    >
      {label}
    </a>
  );
}
