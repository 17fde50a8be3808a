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

/** One line of the chart's tooltip, as the charting library hands it over. */
export interface TooltipItem {
  name?: string;
  value?: unknown;
  color?: string;
}

/**
 * The tooltip's content, the library's own structure and class names (so its look stays), built as
 * elements whose marker colour is set through the style object. The library's own content is HTML
 * whose colour marker carries a `style` attribute, which the console's Content Security Policy
 * refuses (`style-src-attr 'none'`); names and values go in as text.
 */
export function tooltipContent(title: string, items: TooltipItem[]): HTMLElement {
  const content = document.createElement('div');
  if (title) {
    const heading = document.createElement('div');
    heading.className = 'g2-tooltip-title';
    heading.textContent = title;
    content.append(heading);
  }
  const list = document.createElement('ul');
  list.className = 'g2-tooltip-list';
  for (const item of items) {
    const line = document.createElement('li');
    line.className = 'g2-tooltip-list-item';
    const marker = document.createElement('span');
    marker.className = 'g2-tooltip-list-item-marker';
    if (item.color) marker.style.background = item.color;
    const label = document.createElement('span');
    label.className = 'g2-tooltip-list-item-name-label';
    label.textContent = item.name ?? '';
    const name = document.createElement('span');
    name.className = 'g2-tooltip-list-item-name';
    name.append(marker, label);
    const value = document.createElement('span');
    value.className = 'g2-tooltip-list-item-value';
    value.textContent = item.value === undefined || item.value === null ? '' : String(item.value);
    line.append(name, value);
    list.append(line);
  }
  content.append(list);
  return content;
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
    interaction: {
      tooltip: { render: (_event: unknown, { title, items }: { title: string; items: TooltipItem[] }) => tooltipContent(title, items) },
    },
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
