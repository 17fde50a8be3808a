import { Bar, Line } from '@ant-design/charts';

/** One point of a report: its label on the axis and its count. */
export interface ChartPoint {
  label: string;
  count: number;
}

export interface ReportChartProps {
  /** A line (a series in time) or bars (one per application or area). */
  kind: 'line' | 'bar';
  data: ChartPoint[];
  height: number;
  /** What the counts are, for the tooltip ("Sign-ins"). */
  valueName: string;
}

// Counts are whole: no 0.5 tick between 0 and 1.
const countAxis = { title: false, tickFilter: (value: number) => Number.isInteger(value) };

/**
 * The chart of a report. The charting library is large: this module is only ever loaded lazily,
 * by a widget that has data to draw, so neither the dashboard's first paint nor the console's
 * start waits for it.
 */
export default function ReportChart({ kind, data, height, valueName }: ReportChartProps) {
  const common = {
    data,
    xField: 'label',
    yField: 'count',
    height,
    autoFit: true,
    scale: { y: { domainMin: 0, nice: true } },
    tooltip: { items: [{ channel: 'y', name: valueName }] },
  };
  return kind === 'line' ? (
    <Line {...common} axis={{ x: { title: false }, y: countAxis }} point={{ shapeField: 'circle', sizeField: 3 }} />
  ) : (
    // Horizontal bars: application and area names read across, shortened when long.
    <Bar
      {...common}
      axis={{ x: { title: false, labelAutoRotate: false, labelAutoWrap: true, labelAutoEllipsis: true }, y: countAxis }}
      label={{ text: 'count', position: 'inside' }}
    />
  );
}
