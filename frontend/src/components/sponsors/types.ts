/** A sponsor as the server publishes it (amounts are never published). */
export interface Sponsor {
  name: string;
  link: string | null;
  img: string | null;
  tier?: 'largest' | 'large' | 'medium' | 'small';
}
