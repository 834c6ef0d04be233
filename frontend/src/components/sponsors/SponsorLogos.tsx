import type { Sponsor } from './types';

const isSafeLink = (link: string | null): link is string => !!link && /^https?:\/\//.test(link);

/** One sponsor: the logo (linked when a site is known), else the name. */
export function SponsorItem({ sponsor, size }: { sponsor: Sponsor; size: 1 | 2 | 3 | 4 }) {
  const dims = { 4: [240, 96], 3: [200, 80], 2: [150, 60], 1: [110, 44] }[size];
  const body = sponsor.img ? (
    <img src={sponsor.img} alt={sponsor.name} width={dims[0]} height={dims[1]} loading="lazy" decoding="async" />
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
export function SponsorGroup({ label, sponsors, size }: { label: string; sponsors: Sponsor[]; size: 1 | 2 | 3 | 4 }) {
  if (sponsors.length === 0) return null;
  return (
    <ul className={`sponsor-group sponsor-group--size${size}`} aria-label={label}>
      {sponsors.map((sponsor, index) => (
        <SponsorItem key={`${sponsor.name}-${index}`} sponsor={sponsor} size={size} />
      ))}
    </ul>
  );
}
