import { activityLabel } from "~/catalogue/dashboard";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface ChartDay {
  date: string;
  byKind: Record<string, number>;
}

const COLOURS = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2", "#4b5563"];

/** Events per day, stacked by kind. Loaded lazily: recharts is heavy and only this page needs it. */
export default function ActivityChart({ days, kinds }: { days: ChartDay[]; kinds: string[] }) {
  const rows = days.map((d) => ({ date: d.date.slice(5), ...d.byKind }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart accessibilityLayer={false} data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="date" tick={{ fontSize: 12 }} interval="preserveStartEnd" minTickGap={16} />
        <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
        <Tooltip />
        <Legend />
        {kinds.map((kind, i) => (
          <Bar key={kind} dataKey={kind} name={activityLabel(kind)} stackId="events" fill={COLOURS[i % COLOURS.length]} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
