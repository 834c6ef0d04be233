import type { Sponsor } from '@/components/sponsors/types';

/** Paid total and number of paid supports. */
export interface SalesSum {
  amount: number;
  lot: number;
}

export interface Progress {
  /** Percent with 2 decimals (project page ring). */
  ring: number;
  /** Percent with 1 decimal (home cards). */
  card: number;
  /** Percent capped at 100, for drawing. */
  capped: number;
}

/** A project of `GET /v1/helper/get/master`. */
export interface ProjectCard {
  id: number;
  slug: string;
  title: string;
  description: string;
  target: number;
  period: string;
  urls: { main: string };
  isDonation: boolean;
  taxIncludes: boolean;
  hasAnonymousBank: boolean;
  daysLeft: number;
  isOpen: boolean;
  sum: SalesSum;
  progress: Progress;
}

export interface MasterResponse {
  master: {
    projects: ProjectCard[];
    env: { name: 'local' | 'develop' | 'production'; flag: boolean };
  };
}

export interface SliderImage {
  src: string;
  alt?: string;
}

export interface AnonymousBank {
  bankAccount: string;
  branch: string;
  kinds: string;
  number: string;
  nominee: string;
}

export type BlockReason = 'ended' | 'disabled' | 'sold_out';

export interface ProjectReturn {
  id: number;
  slug: string;
  /** 0 individual, 1 company, 2 organisation. */
  type: 0 | 1 | 2;
  title: string;
  description: string;
  /** Unit price as the project lists it: tax included (税込), before tax (税別) or a donation (非課税). */
  price: number;
  /** Consumption tax contained in `total`. */
  tax: number;
  /** What one lot costs the supporter, tax included: the figure every screen shows first. */
  total: number;
  taxLabel: '税込' | '税別' | '非課税';
  limit: number | null;
  remaining: number | null;
  disabled: boolean;
  disabledComment: string | null;
  purchasable: boolean;
  blockReason: BlockReason | null;
  blockMessage: string | null;
  course: string | null;
  imageSrc: string | null;
  descriptionImage: string | null;
  descriptionComment: string | null;
  lotDisable: boolean;
  addressRequired: boolean;
}

export interface ProjectDetail extends ProjectCard {
  content: string;
  slider: SliderImage[];
  honorImgUrl: string | null;
  ImgUrlLink: string | null;
  anonymousBank: AnonymousBank | null;
  settings: { usesManualSponsors: boolean; hideFooterSponsors: boolean };
  returns: ProjectReturn[];
}

export interface NewsItem {
  id: number;
  title: string;
  description: string | null;
  updated_at: string;
}

export interface Comment {
  id: number;
  project_id: number;
  user_id: number;
  comment: string;
  updated_at: string;
  userDetail?: {
    id: number;
    displayname: string | null;
    urls?: { icon?: Array<{ url: string }> };
  } | null;
  salesDetail?: { displayname?: { displayname?: string | null } | null } | null;
}

export interface ManualSponsor {
  name: string;
  src: string | null;
  link: string | null;
}

export interface SponsorList {
  manual: boolean;
  corporate: { size3: Sponsor[]; size2: Sponsor[]; size1: Sponsor[] };
  personal: Array<{ name: string }>;
  courses: null | { A: ManualSponsor[]; B: ManualSponsor[]; C: ManualSponsor[]; supporters: string[] };
}
