import { ShellAnalyzer } from './src/main/core/approval/shell';
const a = await ShellAnalyzer.create({ env: () => ({ HOME: '/h' }) });
for (const l of ['- x=1', 'ls x=1', '-- x=1', '-x a=b', '. x=1', '%1 a=b', '1 a=b']) console.log(JSON.stringify(l), JSON.stringify(a.analyzeWithGrammar(l, '/w', () => true).parts), JSON.stringify(a.analyzeWithGrammar(l, '/w', () => true).unsafe), JSON.stringify(a.analyzePlain(l, '/w', () => true)?.parts));
