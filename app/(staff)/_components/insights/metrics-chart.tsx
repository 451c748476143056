'use client';
// The daily chart. A day without a reading is null and stays a gap in the line
// (connectNulls false): drawing it as 0 would show a collapse that never happened.
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface ChartPoint {
  date: string;
  value: number | null;
}

export function MetricsChart({ points, label, format }: { points: ChartPoint[]; label: string; format: (n: number) => string }) {
  const missing = points.filter((p) => p.value === null).length;
  return (
    <figure className="min-w-0" data-testid="metrics-chart">
      <div className="h-64 w-full min-w-0">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer>
            <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
            <XAxis dataKey="date" tick={{ fontSize: 11, fill: '#475569' }} tickFormatter={(d: string) => d.slice(5)} minTickGap={16} />
            <YAxis tick={{ fontSize: 11, fill: '#475569' }} width={56} tickFormatter={(n: number) => format(n)} />
            <Tooltip formatter={(v) => (typeof v === 'number' ? format(v) : 'no reading')} labelFormatter={(d) => String(d)} />
            <Line type="linear" dataKey="value" name={label} stroke="#1d4ed8" strokeWidth={2} dot={{ r: 2 }} connectNulls={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="mt-1 text-xs text-slate-600">
        {label} per day. {missing > 0 ? `${missing} day${missing === 1 ? '' : 's'} without a reading, shown as gaps (not zero).` : 'Every day has a reading.'}
      </figcaption>
    </figure>
  );
}
