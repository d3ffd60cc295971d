// One chart of the dashboard, drawn by uPlot on a canvas. Loaded on its own (React.lazy from
// DashboardCharts) so uPlot reaches only the admin dashboard, never the public pages. The canvas is
// hidden from assistive technology: each chart's numbers are in its table and summary.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartLine {
  label: string;
  values: number[];
  color: string;
}

export interface TimeChartProps {
  /** The x axis: one label per bucket, oldest first. */
  labels: string[];
  lines: ChartLine[];
  kind: 'bars' | 'lines';
  /** How a value reads on the axis and in the legend. */
  formatValue: (value: number) => string;
}

const HEIGHT = 240;

export default function TimeChart({ labels, lines, kind, formatValue }: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const bars = kind === 'bars' ? uPlot.paths.bars?.({ size: [0.6, 28] }) : undefined;
    const options: uPlot.Options = {
      width: Math.max(el.clientWidth, 280),
      height: HEIGHT,
      scales: { x: { time: false, range: [-0.5, labels.length - 0.5] } },
      axes: [
        { incrs: [1, 2, 3, 5, 7, 10], values: (_u, splits) => splits.map((i) => (Number.isInteger(i) ? (labels[i] ?? '') : '')) },
        { size: 70, values: (_u, splits) => splits.map((v) => formatValue(v)) },
      ],
      series: [
        { label: 'Period', // uPlot passes null while the cursor is off the chart (its types say number).
          value: (_u, i: number | null) => (i == null ? '' : (labels[i] ?? '')) },
        ...lines.map<uPlot.Series>((line) => ({
          label: line.label,
          stroke: line.color,
          width: 2,
          fill: kind === 'bars' ? line.color : undefined,
          paths: bars,
          points: { show: kind === 'lines' },
          value: (_u, v: number | null) => (v == null ? '' : formatValue(v)),
        })),
      ],
    };
    const data: uPlot.AlignedData = [labels.map((_, i) => i), ...lines.map((line) => line.values)];
    const plot = new uPlot(options, data, el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 280), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [labels, lines, kind, formatValue]);

  return <div ref={box} aria-hidden="true" data-chart={kind} className="min-h-60 w-full overflow-hidden" />;
}
