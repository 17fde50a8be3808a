import { describe, expect, it } from 'vitest';
import { tooltipContent } from './ReportChart';

describe('the report chart’s tooltip', () => {
  it('lists each point’s name and count under the title, the marker in the point’s colour', () => {
    const content = tooltipContent('Nov 28', [{ name: 'Sign-ins', value: 42, color: 'rgb(22, 119, 255)' }]);
    expect(content.querySelector('.g2-tooltip-title')).toHaveTextContent('Nov 28');
    const line = content.querySelector('.g2-tooltip-list-item')!;
    expect(line.querySelector('.g2-tooltip-list-item-name-label')).toHaveTextContent('Sign-ins');
    expect(line.querySelector('.g2-tooltip-list-item-value')).toHaveTextContent('42');
    expect(line.querySelector<HTMLElement>('.g2-tooltip-list-item-marker')!.style.background).toBe('rgb(22, 119, 255)');
  });

  it('puts names and values in as text: an application named like markup stays its name', () => {
    const content = tooltipContent('', [{ name: '<img src=x onerror=alert(1)>', value: '<b>3</b>' }]);
    expect(content.querySelector('img, b')).toBeNull();
    expect(content.querySelector('.g2-tooltip-title')).toBeNull();
    expect(content.querySelector('.g2-tooltip-list-item-name-label')).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(content.querySelector('.g2-tooltip-list-item-value')).toHaveTextContent('<b>3</b>');
  });

  it('leaves the value empty when a point has none, and the marker without colour when none is given', () => {
    const content = tooltipContent('Title', [{ name: 'Users' }]);
    expect(content.querySelector('.g2-tooltip-list-item-value')!.textContent).toBe('');
    expect(content.querySelector<HTMLElement>('.g2-tooltip-list-item-marker')!.getAttribute('style')).toBeNull();
  });
});
