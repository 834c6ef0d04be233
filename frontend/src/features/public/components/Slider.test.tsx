import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SLIDE_SPEED_MS, Slider } from './Slider';

const images = [
  { src: '/a.svg', alt: '櫓を組む様子' },
  { src: '/b.svg', alt: '' },
  { src: '/c.svg', alt: '花火' },
];

const track = () => document.querySelector<HTMLElement>('.slider__track')!;
const current = () => screen.getAllByRole('group', { hidden: true }).findIndex((slide) => slide.getAttribute('aria-hidden') === 'false');

describe('Slider', () => {
  it('starts on the first image, never moves by itself, and slides in 1000 ms', () => {
    render(<Slider images={images} title="夏祭り" />);

    expect(current()).toBe(0);
    expect(track().style.transform).toBe('translateX(-0%)');
    expect(track().style.transitionDuration).toBe(`${SLIDE_SPEED_MS}ms`);
    expect(SLIDE_SPEED_MS).toBe(1000);
  });

  it('gives every image an alt text and fixed dimensions', () => {
    render(<Slider images={images} title="夏祭り" />);

    const slides = screen.getAllByRole('img', { hidden: true }).filter((img) => img.closest('.slider__slide'));
    expect(slides.map((img) => img.getAttribute('alt'))).toEqual(['櫓を組む様子', '夏祭り（画像2）', '花火']);
    for (const img of slides) {
      expect(img).toHaveAttribute('width', '1200');
      expect(img).toHaveAttribute('height', '800');
    }
  });

  it('moves with the next and previous buttons, wrapping around', async () => {
    const user = userEvent.setup();
    render(<Slider images={images} title="夏祭り" />);

    await user.click(screen.getByRole('button', { name: '次の画像' }));
    expect(current()).toBe(1);
    expect(track().style.transform).toBe('translateX(-100%)');
    await user.click(screen.getByRole('button', { name: '前の画像' }));
    await user.click(screen.getByRole('button', { name: '前の画像' }));
    expect(current()).toBe(2);
  });

  it('shows the image of a clicked thumbnail and marks it current', async () => {
    const user = userEvent.setup();
    render(<Slider images={images} title="夏祭り" />);

    await user.click(screen.getByRole('button', { name: '画像3を表示' }));

    expect(current()).toBe(2);
    expect(screen.getByRole('button', { name: '画像3を表示' })).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('button', { name: '画像1を表示' })).not.toHaveAttribute('aria-current');
  });

  it('is operable with the arrow, Home and End keys', async () => {
    const user = userEvent.setup();
    render(<Slider images={images} title="夏祭り" />);

    await user.tab();
    expect(document.activeElement).toHaveClass('slider__viewport');
    await user.keyboard('{ArrowRight}');
    expect(current()).toBe(1);
    await user.keyboard('{End}');
    expect(current()).toBe(2);
    await user.keyboard('{ArrowRight}');
    expect(current()).toBe(0);
    await user.keyboard('{ArrowLeft}');
    expect(current()).toBe(2);
    await user.keyboard('{Home}');
    expect(current()).toBe(0);
  });
});
