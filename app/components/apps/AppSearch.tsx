/* oxlint-disable jsx-a11y/prefer-tag-over-role, jsx-a11y/no-noninteractive-element-to-interactive-role, jsx-a11y/click-events-have-key-events
   -- the WAI-ARIA combobox pattern: an input with the combobox role and a listbox of options. The
   input keeps the focus and handles the keys (aria-activedescendant); a click on an option picks it. */
import { Search } from "lucide-react";
import { useId, useState } from "react";
import { suggestIndustries, type Industry } from "~/catalogue/industries";
import { Input } from "~/components/ui/input";
import { cn } from "~/lib/utils";
import { MAX_QUERY_LENGTH } from "./query";

interface AppSearchProps {
  value: string;
  onValueChange(value: string): void;
  /** A suggestion was picked: the page sets the industry filter and clears the search. */
  onPickIndustry(industry: Industry): void;
}

/**
 * The apps search box with its industry suggestions (spec section 2 and 5): a WAI-ARIA combobox
 * with a listbox popup. Suggestions are the industry names containing the typed text; they show
 * while typing and close on Escape, on blur and after a pick. Without JavaScript it is a plain
 * search field of the page's GET form.
 */
export function AppSearch({ value, onValueChange, onPickIndustry }: AppSearchProps) {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-suggestions`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const suggestions = suggestIndustries(value);
  const expanded = open && suggestions.length > 0;
  const optionId = (i: number) => `${id}-option-${i}`;

  const pick = (industry: Industry) => {
    setOpen(false);
    setActive(-1);
    onPickIndustry(industry);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (suggestions.length === 0) return;
      e.preventDefault();
      setOpen(true);
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((i) =>
        expanded ? (i + step + suggestions.length) % suggestions.length : step === 1 ? 0 : suggestions.length - 1,
      );
    } else if (e.key === "Enter" && expanded && active >= 0) {
      e.preventDefault();
      pick(suggestions[active]!);
    } else if (e.key === "Escape" && expanded) {
      e.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className="relative">
      <label htmlFor={inputId} className="sr-only">
        Search AI apps
      </label>
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      {/* An <input> with the ARIA 1.2 combobox role (WAI-ARIA APG pattern): a native <datalist> cannot
          act on a pick (set the industry, clear the text) nor be styled. */}
      <Input
        id={inputId}
        name="q"
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        maxLength={MAX_QUERY_LENGTH}
        placeholder="Search for AI apps..."
        className="h-11 pl-9"
        value={value}
        onChange={(e) => {
          onValueChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setOpen(false);
          setActive(-1);
        }}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Industry suggestions"
        hidden={!expanded}
        className="absolute inset-x-0 top-full z-20 mt-1 max-h-72 overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-lg"
      >
        {expanded &&
          suggestions.map((industry, i) => (
            <li
              key={industry}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className={cn(
                "cursor-pointer rounded-sm px-3 py-2 text-sm",
                i === active ? "bg-secondary text-secondary-foreground" : "hover:bg-muted",
              )}
              // Keep the focus in the input so its blur does not close the list before the click lands.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(industry)}
            >
              <span className="text-muted-foreground">Industry: </span>
              {industry}
            </li>
          ))}
      </ul>
    </div>
  );
}
