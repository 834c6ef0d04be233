import type { Sponsor } from './types';

const isSafeLink = (link: string | null): link is string => !!link && /^https?:\/\//.test(link);

/**
 * One sponsor: the logo (linked when a site is known), else the name. With `named` the name is written
 * under the logo too (the footer strip: a logo alone says little), and the image needs no text of its own.
 */
export function SponsorItem({ sponsor, size, named = false }: { sponsor: Sponsor; size: 1 | 2 | 3 | 4; named?: boolean }) {
  const dims = { 4: [240, 96], 3: [200, 80], 2: [150, 60], 1: [110, 44] }[size];
  const body = sponsor.img ? (
    named ? (
      <>
        <img src={sponsor.img} alt="" width={dims[0]} height={dims[1]} loading="lazy" decoding="async" />
        <span className="sponsor__caption">{sponsor.name}</span>
      </>
    ) : (
      <img src={sponsor.img} alt={sponsor.name} width={dims[0]} height={dims[1]} loading="lazy" decoding="async" />
    )
  ) : (
    <span className="sponsor__name">{sponsor.name}</span>
  );
  return (
    <li className={`sponsor sponsor--size${size}`}>
      {isSafeLink(sponsor.link) ? (
        <a href={sponsor.link} target="_blank" rel="noopener noreferrer">
          {body}
        </a>
      ) : (
        body
      )}
    </li>
  );
}

/** A row of sponsors of one logo size, labelled for assistive technology. */
export function SponsorGroup({
  label,
  sponsors,
  size,
  named = false,
}: {
  label: string;
  sponsors: Sponsor[];
  size: 1 | 2 | 3 | 4;
  named?: boolean;
}) {
  if (sponsors.length === 0) return null;
  return (
    <ul className={`sponsor-group sponsor-group--size${size}${named ? ' sponsor-group--named' : ''}`} aria-label={label}>
      {sponsors.map((sponsor, index) => (
        <SponsorItem key={`${sponsor.name}-${index}`} sponsor={sponsor} size={size} named={named} />
      ))}
    </ul>
  );
}
