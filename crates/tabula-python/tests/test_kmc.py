"""KMC: an ASE Atoms in, its energy as the KMC computes it, against ASE's own EAM calculator."""

import pytest

ase = pytest.importorskip("ase")
from ase.build import bulk  # noqa: E402
from ase.calculators.eam import EAM  # noqa: E402

import tabula.kmc  # noqa: E402


@pytest.fixture(scope="module")
def potential_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("kmc") / "FeCu_Ackland.eam.fs"
    path.write_text(tabula.kmc.potential("fe-cu"))
    return path


def alloy():
    """bcc Fe, 5 × 5 × 5 cells, a vacancy and a few Cu atoms."""
    atoms = bulk("Fe", "bcc", a=2.8665, cubic=True).repeat((5, 5, 5))
    for i in (3, 40, 41, 77, 130, 200):
        atoms[i].symbol = "Cu"
    del atoms[17]
    return atoms


def test_the_energy_of_an_ase_atoms_equals_ases_eam_calculator(potential_file):
    atoms = alloy()
    energy = tabula.kmc.energy(atoms, potential_file)
    assert (energy.lattice, energy.cells, energy.atoms, energy.vacancies) == ("bcc", 5, 249, 1)
    assert energy.symbols == ["Fe", "Cu"]
    atoms.calc = EAM(potential=str(potential_file), form="fs")
    ase_energy = atoms.get_potential_energy()
    assert abs(energy.energy - ase_energy) / len(atoms) < 1e-6, (energy.energy, ase_energy)


def test_the_same_structure_as_text_gives_the_same_energy(potential_file):
    atoms = alloy()
    assert tabula.kmc.energy(tabula.kmc.to_xyz(atoms), potential_file).energy_nev == (
        tabula.kmc.energy(atoms, potential_file).energy_nev
    )


def test_a_cell_that_is_not_cubic_is_refused(potential_file):
    atoms = bulk("Fe", "bcc", a=2.8665)  # the primitive cell
    with pytest.raises(ValueError, match="cubic"):
        tabula.kmc.energy(atoms, potential_file)
    with pytest.raises(tabula.Error, match="no potential"):
        tabula.kmc.potential("lj")
