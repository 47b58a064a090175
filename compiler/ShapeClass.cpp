#include "compiler/ShapeClass.h"

namespace scanjit {

std::string shapeClassText(const ScanSpec &spec, const KernelPlan &plan) {
  if (!plan.runtimeBatch)
    return spec.toString();
  const ScanGeometry &g = plan.geometry;
  ScanSpec c = spec;
  c.shape.clear();
  c.inStrides.clear();
  c.outStrides.clear();
  c.maskStrides.clear();
  auto add = [&](const GeometryDim &d) {
    c.shape.push_back(d.size);
    c.inStrides.push_back(d.in);
    c.outStrides.push_back(d.out);
    if (spec.mask)
      c.maskStrides.push_back(d.mask);
  };
  for (const GeometryDim &d : g.lines)
    add(d);
  c.dim = c.rank();
  add(g.scan);
  if (plan.family == KernelFamily::Column)
    add(g.inner);
  // The batch is the first dim: a size of 1 leaves every stride as it is
  // (row-major strides never depend on the outermost size), then reads `*`.
  c.shape[0] = 1;
  std::string text = c.toString();
  const size_t open = text.find("[1");
  return text.substr(0, open) + "[*" + text.substr(open + 2);
}

} // namespace scanjit
