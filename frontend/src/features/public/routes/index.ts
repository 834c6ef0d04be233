import '@/styles/public.css';
export { Home } from './Home';
export { Project } from './Project';
export { Commercial, Policy, Terms } from './Legal';
