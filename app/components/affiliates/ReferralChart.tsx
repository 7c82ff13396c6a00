import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { AffiliateDay } from "~/server/affiliates/affiliates.server";

/** Clicks and sign-ups per day (bars) and commission in dollars (line). Loaded lazily: recharts is heavy. */
export default function ReferralChart({ days }: { days: AffiliateDay[] }) {
  const rows = days.map((d) => ({
    date: d.date.slice(5),
    clicks: d.clicks,
    signups: d.signups,
    commission: d.commission / 100,
  }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart accessibilityLayer={false} data={rows} margin={{ top: 8, right: 0, bottom: 0, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="date" tick={{ fontSize: 12 }} interval="preserveStartEnd" minTickGap={16} />
        <YAxis yAxisId="count" allowDecimals={false} tick={{ fontSize: 12 }} />
        <YAxis yAxisId="money" orientation="right" tick={{ fontSize: 12 }} tickFormatter={(v: number) => `$${v}`} />
        <Tooltip />
        <Legend />
        <Bar yAxisId="count" dataKey="clicks" name="Clicks" fill="#2563eb" isAnimationActive={false} />
        <Bar yAxisId="count" dataKey="signups" name="Sign-ups" fill="#16a34a" isAnimationActive={false} />
        <Line
          yAxisId="money"
          type="linear"
          isAnimationActive={false}
          dataKey="commission"
          name="Commission ($)"
          stroke="#d97706"
          strokeWidth={2}
          dot={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
