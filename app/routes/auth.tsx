import { Link } from "react-router";

export default function AuthPage() {
  return (
    <main className="mx-auto max-w-md p-8">
      <h1 className="text-2xl font-bold">Sign In</h1>
      <Link to="/">Back to home</Link>
    </main>
  );
}
