// The program: `herald …` (package.json's bin runs dist/herald.js, which imports this).
import { main } from './main.js';

main();
