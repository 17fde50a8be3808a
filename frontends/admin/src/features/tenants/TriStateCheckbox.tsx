import Checkbox from 'antd/es/checkbox';
import Tooltip from 'antd/es/tooltip';

/** A filter that is off (undefined), on for `true`, or on for `false`. */
export type TriState = boolean | undefined;

/** The spec's cycle: undetermined → checked → unchecked → undetermined. */
export function nextTriState(value: TriState): TriState {
  if (value === undefined) return true;
  return value ? false : undefined;
}

export interface TriStateCheckboxProps {
  label: string;
  /** What each of the three states means (shown on hover and read out with the box). */
  help: string;
  value: TriState;
  onChange: (value: TriState) => void;
}

/** A three-state checkbox filter: undetermined filters nothing, checked and unchecked filter each way. */
export function TriStateCheckbox({ label, help, value, onChange }: TriStateCheckboxProps) {
  return (
    <Tooltip title={help}>
      <Checkbox
        className="tenants-tri-state"
        checked={value === true}
        indeterminate={value === undefined}
        aria-description={help}
        onChange={() => onChange(nextTriState(value))}
      >
        {label}
      </Checkbox>
    </Tooltip>
  );
}
