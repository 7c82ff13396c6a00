import { Badge } from "~/components/ui/badge";

/** Spec 4 'Subscription': Active when a subscription row is active, otherwise Trial. */
export function PlanBadge({ active }: { active: boolean }) {
  return <Badge variant={active ? "success" : "warning"}>{active ? "Active" : "Trial"}</Badge>;
}
