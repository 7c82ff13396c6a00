import { data } from "react-router";

// Placeholder while this route is being written (issue 4/5): answers 404 like an unknown address.
export function loader() {
  return data({ error: "Not found" }, { status: 404 });
}
export function action() {
  return data({ error: "Not found" }, { status: 404 });
}
