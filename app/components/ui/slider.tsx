import { Slider as SliderPrimitive } from "radix-ui";
import type * as React from "react";
import { cn } from "~/lib/utils";

/** shadcn-style Radix slider: keyboard (arrows, Home/End, PageUp/PageDown) and screen-reader ready. */
export function Slider({
  className,
  thumbLabel,
  ...props
}: React.ComponentProps<typeof SliderPrimitive.Root> & { thumbLabel?: string; "aria-valuetext"?: string }) {
  const { "aria-valuetext": valueText, ...rest } = props;
  const count = (props.value ?? props.defaultValue ?? [0]).length;
  return (
    <SliderPrimitive.Root
      className={cn("relative flex w-full touch-none select-none items-center py-2 data-[disabled]:opacity-50", className)}
      {...rest}
    >
      <SliderPrimitive.Track className="relative h-2 w-full grow overflow-hidden rounded-full bg-muted">
        <SliderPrimitive.Range className="absolute h-full bg-primary" />
      </SliderPrimitive.Track>
      {Array.from({ length: count }, (_, i) => (
        <SliderPrimitive.Thumb
          key={i}
          aria-label={thumbLabel}
          aria-valuetext={valueText}
          className="block size-5 rounded-full border-2 border-primary bg-background shadow transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
        />
      ))}
    </SliderPrimitive.Root>
  );
}
