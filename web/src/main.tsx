import { render } from 'preact';
import { App } from './ui/App.tsx';
import './styles.css';

render(<App />, document.getElementById('app')!);
