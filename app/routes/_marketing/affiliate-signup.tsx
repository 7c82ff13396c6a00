import { data } from "react-router";

// Placeholder while this page is being written (issue 5): answers 404 like an unknown address.
export function loader() {
  throw data(null, { status: 404 });
}
export default function Placeholder() {
  return null;
}
