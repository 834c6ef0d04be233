import '@/styles/public.css';
export { Home } from './Home';
export { Project, ProjectView } from './Project';
