import { ComingSoon } from '@/components/ComingSoon';

export { Home } from './Home';
export const Project = ComingSoon;
export const Policy = ComingSoon;
export const Terms = ComingSoon;
export const Commercial = ComingSoon;
