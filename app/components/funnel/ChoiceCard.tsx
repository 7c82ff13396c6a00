import type * as React from "react";
import { cn } from "~/lib/utils";

interface ChoiceCardProps {
  type?: "radio" | "checkbox";
  /** Unique id of the input; the title's label points at it. */
  id: string;
  name: string;
  value: string;
  title: React.ReactNode;
  /** Heading level of the title, so the cards fit the page's outline. */
  titleAs?: "h2" | "h3" | "p";
  defaultChecked?: boolean;
  onChange?: (e: React.ChangeEvent<HTMLInputElement>) => void;
  /** Id of an element inside the card that describes the choice (read after the name). */
  describedBy?: string;
  className?: string;
  children?: React.ReactNode;
}

/**
 * A selectable card built on a native radio or checkbox: it works in a plain HTML form without
 * JavaScript, arrow keys move within a radio group, and the checked state shows as a ring plus the
 * native control (never colour alone). The title's label stretches over the whole card, so a click
 * anywhere on it selects it.
 */
export function ChoiceCard({
  type = "radio",
  id,
  name,
  value,
  title,
  titleAs: Title = "h3",
  defaultChecked,
  onChange,
  describedBy,
  className,
  children,
}: ChoiceCardProps) {
  return (
    <div
      className={cn(
        "relative flex flex-col rounded-xl border-2 border-border bg-card p-5 text-card-foreground shadow-sm transition-colors hover:border-primary/60",
        "has-[:checked]:border-primary has-[:checked]:bg-secondary/50 has-[:checked]:shadow-md",
        "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring has-[:focus-visible]:ring-offset-2",
        className,
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <Title className="text-lg font-semibold leading-snug">
          <label htmlFor={id} className="cursor-pointer after:absolute after:inset-0 after:rounded-xl after:content-['']">
            {title}
          </label>
        </Title>
        <input
          type={type}
          id={id}
          name={name}
          value={value}
          defaultChecked={defaultChecked}
          onChange={onChange}
          aria-describedby={describedBy}
          className="relative z-10 mt-1 size-5 shrink-0 cursor-pointer accent-primary focus-visible:outline-none"
        />
      </div>
      {children}
    </div>
  );
}
