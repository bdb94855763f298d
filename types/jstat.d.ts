declare module "jstat" {
  const jStat: {
    beta: { inv(p: number, a: number, b: number): number; cdf(x: number, a: number, b: number): number };
    normal: { inv(p: number, mean: number, sd: number): number; cdf(x: number, mean: number, sd: number): number };
    studentt: { inv(p: number, dof: number): number };
    chisquare: { inv(p: number, dof: number): number; cdf(x: number, dof: number): number };
  };
  export default jStat;
}
