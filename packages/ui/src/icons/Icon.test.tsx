// @vitest-environment happy-dom
import { faBrain, faHouse } from '@fortawesome/free-solid-svg-icons';
import { Icon } from '@platform/ui';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

describe('Icon', () => {
  it('draws the icon as inline SVG, decorative and hidden from assistive technology by default', () => {
    const { container } = render(<Icon icon={faHouse} />);
    const svg = container.querySelector('svg')!;
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    expect(svg.getAttribute('viewBox')).toBe(`0 0 ${faHouse.icon[0]} ${faHouse.icon[1]}`);
    expect(svg.getAttribute('data-icon')).toBe('house');
    expect(svg.querySelector('path')?.getAttribute('d')).toBe(faHouse.icon[4]);
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('is an image named by its label when it carries meaning', () => {
    render(<Icon icon={faBrain} label="Suggested by AI" />);
    const image = screen.getByRole('img', { name: 'Suggested by AI' });
    expect(image.querySelector('title')?.textContent).toBe('Suggested by AI');
  });

  it('spins on request', () => {
    const { container } = render(<Icon icon={faHouse} spin className="mine" />);
    expect(container.querySelector('svg')?.getAttribute('class')).toBe('plt-icon plt-icon--spin mine');
  });
});
