import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  layout("routes/_marketing/layout.tsx", [
    index("routes/_marketing/home.tsx"),
    route("how-it-works", "routes/_marketing/how-it-works.tsx"),
    route("results", "routes/_marketing/results.tsx"),
    route("industries", "routes/_marketing/industries.tsx"),
    route("goals", "routes/_marketing/goals.tsx"),
    route("packages", "routes/_marketing/packages.tsx"),
    route("questionnaire", "routes/_marketing/questionnaire.tsx"),
    route("apps", "routes/_marketing/apps.tsx"),
    route("live-training", "routes/_marketing/live-training.tsx"),
    route("earn", "routes/_marketing/earn.tsx"),
    route("distributors", "routes/_marketing/distributors.tsx"),
    route("distributor-success", "routes/_marketing/distributor-success.tsx"),
    route("payment-success", "routes/_marketing/payment-success.tsx"),
    route("payment-cancel", "routes/_marketing/payment-cancel.tsx"),
    route("ref/:username", "routes/_marketing/ref.tsx"),
    route("*", "routes/_marketing/not-found.tsx"),
  ]),
] satisfies RouteConfig;
