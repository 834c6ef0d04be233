import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { SliderImage } from '../api/types';

/** Spec 000 §9: slide transition 1000 ms, no autoplay. */
export const SLIDE_SPEED_MS = 1000;

const IMAGE_WIDTH = 1200;
const IMAGE_HEIGHT = 800;

/**
 * The project hero's image slider with thumbnails. Arrow keys (when the slider has focus),
 * the previous/next buttons and the thumbnails change the slide; it never moves by itself.
 */
export function Slider({ images, title }: { images: SliderImage[]; title: string }) {
  const [index, setIndex] = useState(0);
  const id = useId();
  const count = images.length;
  const go = (next: number) => setIndex(((next % count) + count) % count);
  const track = useRef<HTMLDivElement>(null);
  // Set through the style object, not as a `style` attribute: the page's Content-Security-Policy refuses
  // inline style attributes, which a server-rendered track would otherwise carry.
  useLayoutEffect(() => {
    track.current?.style.setProperty('transform', `translateX(-${index * 100}%)`);
    track.current?.style.setProperty('transition-duration', `${SLIDE_SPEED_MS}ms`);
  }, [index]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ArrowRight') {
      event.preventDefault();
      go(index + 1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      go(index - 1);
    } else if (event.key === 'Home') {
      event.preventDefault();
      go(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      go(count - 1);
    }
  };

  const altOf = (image: SliderImage, i: number) => image.alt || `${title}（画像${i + 1}）`;

  return (
    <section className="slider" aria-roledescription="カルーセル" aria-label={`${title}の画像`}>
      <div
        className="slider__viewport"
        tabIndex={0}
        onKeyDown={onKeyDown}
        aria-label="左右の矢印キーで画像を切り替えられます"
      >
        <div ref={track} className="slider__track" aria-live="polite">
          {images.map((image, i) => (
            <div
              key={`${image.src}-${i}`}
              id={`${id}-slide-${i}`}
              className="slider__slide"
              role="group"
              aria-roledescription="スライド"
              aria-label={`${i + 1} / ${count}`}
              aria-hidden={i !== index}
            >
              <img
                src={image.src}
                alt={altOf(image, i)}
                width={IMAGE_WIDTH}
                height={IMAGE_HEIGHT}
                loading={i === 0 ? 'eager' : 'lazy'}
                decoding="async"
              />
            </div>
          ))}
        </div>
        <button type="button" className="slider__nav slider__nav--prev" aria-label="前の画像" onClick={() => go(index - 1)}>
          <span aria-hidden="true">‹</span>
        </button>
        <button type="button" className="slider__nav slider__nav--next" aria-label="次の画像" onClick={() => go(index + 1)}>
          <span aria-hidden="true">›</span>
        </button>
      </div>
      <ul className="slider__thumbs">
        {images.map((image, i) => (
          <li key={`${image.src}-thumb-${i}`}>
            <button
              type="button"
              className="slider__thumb"
              aria-label={`画像${i + 1}を表示`}
              aria-current={i === index ? 'true' : undefined}
              aria-controls={`${id}-slide-${i}`}
              onClick={() => go(i)}
            >
              <img src={image.src} alt="" width={120} height={80} loading="lazy" decoding="async" />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
