import { PackageOpen, Search } from "lucide-react";
import { Form, useSearchParams } from "react-router";
import { z } from "zod";
import { EmptyState, PageHeader } from "~/components/dashboard/pages/common";
import { Button } from "~/components/ui/button";
import { Input, NativeSelect } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { ADDON_CATEGORIES } from "~/catalogue/plans";
import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/addons";

export const meta: Route.MetaFunction = () => [
  { title: "Add-Ons Marketplace | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

export interface Addon {
  id: string;
  name: string;
  description: string;
  category: string;
  monthlyPrice: number;
  features: string[];
}

const query = z.object({
  q: z.string().trim().max(100).catch(""),
  category: z.enum(["All", ...ADDON_CATEGORIES]).catch("All"),
});

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  const url = new URL(request.url);
  const filters = query.parse({ q: url.searchParams.get("q") ?? "", category: url.searchParams.get("category") ?? "All" });
  // The addon_library table arrives with checkout (next issue); until then there is nothing to list.
  const addons: Addon[] = [];
  return { filters, addons };
}

export default function AddonsPage({ loaderData }: Route.ComponentProps) {
  const { filters, addons } = loaderData;
  const [params] = useSearchParams();
  const filtered = params.has("q") || params.has("category");

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Add-Ons Marketplace" description="Extend your automations with ready-made add-ons." />
      <search aria-label="Add-ons">
        <Form method="get" className="mb-6 grid gap-3 sm:grid-cols-[1fr_14rem_auto] sm:items-end">
          <div className="grid gap-2">
            <Label htmlFor="addon-search">Search add-ons</Label>
            <div className="relative">
              <Search className="absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
              <Input
                id="addon-search"
                name="q"
                type="search"
                defaultValue={filters.q}
                placeholder="Search by name or feature"
                className="pl-9"
              />
            </div>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="addon-category">Category</Label>
            <NativeSelect id="addon-category" name="category" defaultValue={filters.category}>
              {["All", ...ADDON_CATEGORIES].map((c) => (
                <option key={c} value={c}>
                  {c === "All" ? "All categories" : c}
                </option>
              ))}
            </NativeSelect>
          </div>
          <Button type="submit" variant="outline">
            Apply
          </Button>
        </Form>
      </search>
      {addons.length === 0 ? (
        <EmptyState icon={<PackageOpen />} title="No add-ons available yet">
          <p className="max-w-md text-sm text-muted-foreground">
            {filtered
              ? "Nothing matches these filters yet. The add-on library opens with the next release."
              : "The add-on library opens with the next release. Check back soon."}
          </p>
        </EmptyState>
      ) : null}
    </div>
  );
}
